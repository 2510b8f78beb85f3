import { Clock, jitter, sleep } from './clock';
import { isConflict, isNotFound, KubeApi, LEASE_KIND } from './kube-api';
import { Logger } from './logger';

/** The `spec` of a `coordination.k8s.io/v1` Lease as leader election writes it. */
export interface LeaseSpec {
  readonly holderIdentity?: string;
  readonly leaseDurationSeconds?: number;
  readonly acquireTime?: string;
  readonly renewTime?: string;
  readonly leaseTransitions?: number;
}

export interface LeaderElectionOptions {
  readonly api: KubeApi;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Namespace of the Lease. */
  readonly namespace: string;
  /** Name of the Lease. */
  readonly name: string;
  /** This process's identity (`holderIdentity`): unique per process. */
  readonly identity: string;
  /** How long a non-leader waits after the last renewal it saw before taking over. @default 15_000 */
  readonly leaseDurationMs?: number;
  /** How long the leader keeps retrying a failed renewal before it gives up leading. @default 10_000 */
  readonly renewDeadlineMs?: number;
  /** Wait between attempts. @default 2_000 */
  readonly retryPeriodMs?: number;
  /** Called when this process becomes the leader. */
  readonly onStartedLeading: () => void;
  /** Called when this process stops leading because it could not renew (not on `stop()`). */
  readonly onStoppedLeading: () => void;
  /** Called when leadership is observed to change hands (including to this process). */
  readonly onNewLeader?: (identity: string) => void;
  /** Whether this process leads, as it changes (`leader_election_master_status`). */
  readonly onLeadingChanged?: (leading: boolean) => void;
  /** @default Math.random */
  readonly random?: () => number;
}

/**
 * client-go's leader election on a Lease, with controller-runtime's timings (15 s lease, 10 s
 * renew deadline, 2 s retry period):
 *
 * - a candidate tries at once and then every retry period (jittered by up to 1.2×), or when the
 *   lease it saw held expires if that comes first: it creates
 *   the Lease if there is none, or takes it when it has no holder or when its content has not
 *   changed for a lease duration (measured on this process's clock since it last saw the Lease
 *   change, so clock skew between nodes does not matter); every write carries the
 *   resourceVersion read, so two candidates never both win (409 Conflict);
 * - the leader renews every retry period; when it cannot renew within the renew deadline it stops
 *   leading (`onStoppedLeading`) — before any other candidate can take over, since the renew
 *   deadline is shorter than the lease duration;
 * - `stop()` releases a held Lease (empty holder, 1 s duration), so a successor takes over at its
 *   next attempt instead of waiting a lease duration.
 */
export class LeaderElector {
  private leading = false;
  private stopped = false;
  private readonly abort = new AbortController();
  private observedSpec?: string;
  private observedTime = 0;
  private observedHolder = '';
  /** When the lease another process holds expires, as last observed (undefined when it is not held by another). */
  private otherHolderExpiresAt?: number;
  /** The Lease as last written by this process (its resourceVersion allows renewing without a read). */
  private held?: any;
  private running?: Promise<void>;
  /** The last acquire-or-renew attempt (kept so that `stop()` can wait for one still on the wire). */
  private inFlight?: Promise<boolean>;
  private readonly leaseDurationMs: number;
  private readonly renewDeadlineMs: number;
  private readonly retryPeriodMs: number;

  public constructor(private readonly options: LeaderElectionOptions) {
    this.leaseDurationMs = options.leaseDurationMs ?? 15_000;
    this.renewDeadlineMs = options.renewDeadlineMs ?? 10_000;
    this.retryPeriodMs = options.retryPeriodMs ?? 2_000;
    if (this.leaseDurationMs <= this.renewDeadlineMs) throw new Error('the lease duration must be longer than the renew deadline');
    if (this.renewDeadlineMs <= this.retryPeriodMs * 1.2) throw new Error('the renew deadline must be longer than 1.2 × the retry period');
  }

  /** Whether this process holds the Lease now. */
  public get isLeader(): boolean {
    return this.leading;
  }

  /** The holder this process last observed. */
  public get observedLeader(): string {
    return this.observedHolder;
  }

  /**
   * Campaigns, then renews while leading. Resolves when leadership is lost (after
   * `onStoppedLeading`) or `stop()` was called.
   */
  public run(): Promise<void> {
    this.running ??= this.loop();
    return this.running;
  }

  /** Stops campaigning or renewing; releases the Lease if held. */
  public async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    await this.running;
    // A renewal whose wait was abandoned may still be on the wire: let it land before releasing,
    // so the release writes over it instead of racing it.
    await this.inFlight?.catch(() => undefined);
    if (this.leading) await this.release();
  }

  private async loop(): Promise<void> {
    const log = this.options.logger;
    log.info('attempting to acquire leader lease', { lease: `${this.options.namespace}/${this.options.name}`, identity: this.options.identity });
    while (!this.stopped) {
      if (await this.tryAcquireOrRenew()) break;
      // Try again after a retry period, or right when another holder's lease expires if sooner.
      let wait = jitter(this.retryPeriodMs, 1.2, this.options.random);
      if (this.otherHolderExpiresAt !== undefined) wait = Math.min(wait, Math.max(0, this.otherHolderExpiresAt - this.options.clock.now()));
      await sleep(this.options.clock, wait, this.abort.signal);
    }
    if (this.stopped) return;
    this.setLeading(true);
    log.info('successfully acquired lease', { lease: `${this.options.namespace}/${this.options.name}`, identity: this.options.identity });
    this.options.onStartedLeading();

    while (!this.stopped) {
      await sleep(this.options.clock, this.retryPeriodMs, this.abort.signal);
      if (this.stopped) return;
      const deadline = this.options.clock.now() + this.renewDeadlineMs;
      let renewed = false;
      while (!this.stopped && !renewed) {
        renewed = await this.attemptBefore(deadline);
        if (renewed || this.stopped) break;
        const left = deadline - this.options.clock.now();
        if (left <= 0) break;
        await sleep(this.options.clock, Math.min(this.retryPeriodMs, left), this.abort.signal);
        if (this.options.clock.now() >= deadline) break;
      }
      if (this.stopped) return;
      if (!renewed) {
        this.setLeading(false);
        log.error('leader election lost: the lease could not be renewed within the renew deadline', {
          lease: `${this.options.namespace}/${this.options.name}`,
          renewDeadlineSeconds: this.renewDeadlineMs / 1000,
        });
        this.options.onStoppedLeading();
        return;
      }
    }
  }

  /** One attempt, abandoned (false) when the deadline passes first. */
  private async attemptBefore(deadline: number): Promise<boolean> {
    const timeout = new AbortController();
    const onStop = () => timeout.abort();
    this.abort.signal.addEventListener('abort', onStop, { once: true });
    const attempt = this.tryAcquireOrRenew();
    this.inFlight = attempt;
    try {
      return await Promise.race([
        attempt,
        sleep(this.options.clock, Math.max(0, deadline - this.options.clock.now()), timeout.signal).then(() => false),
      ]);
    } finally {
      timeout.abort();
      this.abort.signal.removeEventListener('abort', onStop);
    }
  }

  /** client-go's `tryAcquireOrRenew`: true when this process holds the Lease after the call. */
  private async tryAcquireOrRenew(): Promise<boolean> {
    const { api, namespace, name, identity, clock, logger } = this.options;
    const now = clock.now();
    this.otherHolderExpiresAt = undefined;
    // Fast path: the leader renews with the resourceVersion of its own last write.
    if (this.leading && this.held && this.observedTime + this.leaseDurationMs > now) {
      try {
        await this.write({ ...this.held.spec, renewTime: microTime(now) }, this.held);
        return true;
      } catch (e) {
        logger.debug('lease renewal without a read failed; reading the lease', { error: e });
      }
    }
    let current: any;
    try {
      current = await api.get(LEASE_KIND, namespace, name);
    } catch (e) {
      if (!isNotFound(e)) {
        logger.error('error retrieving lease', { lease: `${namespace}/${name}`, error: e });
        return false;
      }
      try {
        await this.write(this.spec(now, undefined), undefined);
        return true;
      } catch (err) {
        logger.error('error creating lease', { lease: `${namespace}/${name}`, error: err });
        return false;
      }
    }
    const spec: LeaseSpec = current?.spec ?? {};
    const specText = JSON.stringify(spec);
    if (specText !== this.observedSpec) {
      this.observe(spec, clock.now());
    }
    const holder = spec.holderIdentity ?? '';
    if (holder !== '' && holder !== identity && this.observedTime + this.leaseDurationMs > clock.now()) {
      this.otherHolderExpiresAt = this.observedTime + this.leaseDurationMs;
      logger.debug('lease is held by another process and has not expired', { holder });
      return false;
    }
    // Stopped meanwhile (this attempt's wait was abandoned): take nothing any more.
    if (this.stopped) return false;
    try {
      await this.write(this.spec(now, spec), current);
      return true;
    } catch (e) {
      if (isConflict(e)) logger.debug('lease changed while acquiring it', { error: e });
      else logger.error('error updating lease', { lease: `${namespace}/${name}`, error: e });
      return false;
    }
  }

  private spec(now: number, previous: LeaseSpec | undefined): LeaseSpec {
    const ours = previous?.holderIdentity === this.options.identity;
    return {
      holderIdentity: this.options.identity,
      leaseDurationSeconds: Math.round(this.leaseDurationMs / 1000),
      acquireTime: ours && previous?.acquireTime ? previous.acquireTime : microTime(now),
      renewTime: microTime(now),
      leaseTransitions: (previous?.leaseTransitions ?? 0) + (previous && !ours && previous.holderIdentity ? 1 : 0),
    };
  }

  /** Creates (no `current`) or replaces the Lease with `spec`; remembers what was written. */
  private async write(spec: LeaseSpec, current: any | undefined): Promise<void> {
    const { api, namespace, name, clock } = this.options;
    const body = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: current ? { ...current.metadata, name, namespace } : { name, namespace },
      spec,
    };
    const written = current ? await api.replace(LEASE_KIND, namespace, body) : await api.create(LEASE_KIND, namespace, body);
    this.held = written ?? body;
    this.observe(spec, clock.now());
  }

  private observe(spec: LeaseSpec, at: number): void {
    this.observedSpec = JSON.stringify(spec);
    this.observedTime = at;
    const holder = spec.holderIdentity ?? '';
    if (holder !== this.observedHolder) {
      this.observedHolder = holder;
      if (holder) {
        this.options.logger.info('new leader observed', { holder });
        this.options.onNewLeader?.(holder);
      }
    }
  }

  /**
   * Empties the holder of the Lease this process holds. A renewal still in flight when `stop()`
   * was called (its wait is abandoned, not its request) may land first and make the held version
   * stale: on 409 the Lease is read again and released if this process still holds it.
   */
  private async release(): Promise<void> {
    const { api, namespace, name, identity, clock, logger } = this.options;
    const released = (held: any) => {
      const now = clock.now();
      return this.write(
        { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: microTime(now), renewTime: microTime(now), leaseTransitions: held?.spec?.leaseTransitions ?? 0 },
        held,
      );
    };
    try {
      if (!this.held) throw new Error('no lease held');
      try {
        await released(this.held);
      } catch (e) {
        if (!isConflict(e)) throw e;
        const current = await api.get(LEASE_KIND, namespace, name);
        if (current?.spec?.holderIdentity !== identity) {
          logger.info('the lease is no longer ours: nothing to release', { lease: `${namespace}/${name}`, holder: current?.spec?.holderIdentity ?? '' });
          return;
        }
        await released(current);
      }
      logger.info('released leader lease', { lease: `${namespace}/${name}` });
    } catch (e) {
      logger.error('failed to release the lease; a successor takes over when it expires', { lease: `${namespace}/${name}`, error: e });
    } finally {
      this.setLeading(false);
    }
  }

  private setLeading(leading: boolean): void {
    if (this.leading === leading) return;
    this.leading = leading;
    this.options.onLeadingChanged?.(leading);
  }
}

/** `metav1.MicroTime` as the API server writes it: RFC 3339 with six fractional digits. */
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
