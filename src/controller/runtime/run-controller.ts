import { randomUUID } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import { SYSTEM_CLOCK } from './clock';
import { loadClusterCredentials } from './cluster-credentials';
import { KubeClient } from './kube-client';
import { errorText, jsonLogger, Logger } from './logger';
import { Manager } from './manager';
import type { ControllerOptions } from './options';
import { dependencyKinds, emittedKind, renderedKind } from './watched-kinds';
import { defaultProviderCatalog } from '../../pipeline/shipped-providers';
import { isRenderedRecord, reconcileRecord } from '../status';

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/** Where log lines go: stderr, one JSON object per line. */
export interface ProcessHooks {
  readonly writeLog: (line: string) => void;
}

/**
 * Runs the controller in this process until SIGTERM/SIGINT (exit code 0) or a fatal error
 * (exit code 1): the command `cdk8s-inference controller`.
 */
export async function runController(options: ControllerOptions, hooks: ProcessHooks = { writeLog: (line) => process.stderr.write(`${line}\n`) }): Promise<number> {
  const logger = jsonLogger({ level: options.logLevel, write: hooks.writeLog });
  let api: KubeClient;
  try {
    api = new KubeClient(loadClusterCredentials(options.kubeconfig), { userAgent: 'cdk8s-inference-controller' });
  } catch (e) {
    logger.error('cannot load the Kubernetes client configuration', { kubeconfig: options.kubeconfig ?? '(in-cluster or default)', error: errorText(e) });
    return 1;
  }
  const catalog = defaultProviderCatalog();
  const kinds = dependencyKinds(catalog);
  const identity = `${os.hostname()}_${randomUUID()}`;
  const leaderElectionNamespace = options.leaderElectionNamespace ?? podNamespace() ?? 'default';
  logger.info('starting controller', {
    server: api.server,
    credentials: api.credentialsSource,
    namespace: options.namespace ?? '',
    leaderElect: options.leaderElect,
    setOwnerReferences: options.setOwnerReferences,
    ...(options.leaderElect && { lease: `${leaderElectionNamespace}/${options.leaderElectionId}`, identity }),
    watchedKinds: kinds.map((k) => `${k.apiVersion} ${k.kind}${k.objectName !== undefined ? ` ${k.objectName}` : ''}`),
  });

  const manager = new Manager({
    options,
    api,
    clock: SYSTEM_CLOCK,
    logger,
    computeStatus: (record, lookup, now) => reconcileRecord(record, catalog, lookup, now),
    isRendered: isRenderedRecord,
    dependencyKinds: kinds,
    resolveKind: (apiVersion, kind) => emittedKind(catalog, apiVersion, kind),
    resolveRenderedKind: (apiVersion, kind) => renderedKind(catalog, apiVersion, kind),
    identity,
    leaderElectionNamespace,
  });

  const removeSignalHandlers = onTerminationSignals(logger, (signal) => manager.shutdown(`received ${signal}`));
  // Keeps the process alive while it only waits (no server, watches reconnecting).
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  try {
    return await manager.run();
  } finally {
    clearInterval(keepAlive);
    removeSignalHandlers();
    await api.close();
  }
}

/**
 * SIGTERM/SIGINT start the graceful shutdown; a second one exits at once (code 1), as
 * controller-runtime does.
 */
function onTerminationSignals(logger: Logger, shutdown: (signal: string) => void): () => void {
  let received = false;
  const handler = (signal: NodeJS.Signals) => {
    if (received) {
      logger.error('second termination signal: exiting without cleanup', { signal });
      process.exit(1);
    }
    received = true;
    shutdown(signal);
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
  return () => {
    process.off('SIGTERM', handler);
    process.off('SIGINT', handler);
  };
}

/** The namespace this pod runs in: POD_NAMESPACE (downward API), else the service account's. */
function podNamespace(): string | undefined {
  if (process.env.POD_NAMESPACE) return process.env.POD_NAMESPACE;
  try {
    return fs.readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
