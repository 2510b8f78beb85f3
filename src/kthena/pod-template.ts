import { Duration } from 'cdk8s';
import { Container, ContainerProps, k8s, PodSecurityContext, PodSecurityContextProps, Volume } from 'cdk8s-plus-34';
import { controllerLabelErrors, imageErrors, labelMapErrors } from './checks';
import { KthenaPodLabels } from './labels';
import { FieldError, fieldPath, forbidden, invalid, required } from '../core/field-error';
import { extendedResourceNameErrors } from '../core/kubernetes-names';

/**
 * A container of a Kthena pod template: cdk8s-plus's `ContainerProps` (so cdk8s-plus's defaults
 * apply, among them its resource requests and limits and its restrictive security context when
 * they are not set), plus the extended resources cdk8s-plus cannot express.
 */
export interface KthenaContainerProps extends ContainerProps {
  /**
   * Extended resources of the container, such as GPUs: `{ 'nvidia.com/gpu': 8 }`. They are set
   * as resource limits (Kubernetes makes the requests equal). cdk8s-plus's `resources` covers
   * only CPU, memory and ephemeral storage.
   * @default - none
   */
  readonly extendedResources?: { [resourceName: string]: number };
}

/** Labels and annotations of a pod template. */
export interface KthenaPodMetadata {
  /**
   * Pod labels. Keys under `inference.cdk8s.io/kthena-` and `modelserving.volcano.sh/` are
   * reserved: the first are written by `KthenaModelServing` (see `KthenaPodLabels`), the second
   * by Kthena's controller.
   * @default - none
   */
  readonly labels?: { [key: string]: string };

  /**
   * Pod annotations.
   * @default - none
   */
  readonly annotations?: { [key: string]: string };
}

/** Props of a `KthenaPodTemplate` built from cdk8s-plus types. */
export interface KthenaPodTemplateProps extends KthenaPodMetadata {
  /**
   * The containers; more can be added with `addContainer()`. At least one is needed by synth.
   * @default - none yet
   */
  readonly containers?: KthenaContainerProps[];

  /**
   * Init containers, run in order before the containers.
   * @default - none
   */
  readonly initContainers?: KthenaContainerProps[];

  /**
   * Volumes of the pod besides those the containers mount (which are added by themselves).
   * @default - only the mounted volumes
   */
  readonly volumes?: Volume[];

  /**
   * Name of the pod's ServiceAccount.
   * @default - the namespace's `default` ServiceAccount
   */
  readonly serviceAccountName?: string;

  /**
   * Node labels the pod must match.
   * @default - any node
   */
  readonly nodeSelector?: { [key: string]: string };

  /**
   * Tolerations, e.g. of the taint on GPU nodes.
   * @default - none
   */
  readonly tolerations?: k8s.Toleration[];

  /**
   * Node and pod affinity.
   * @default - none
   */
  readonly affinity?: k8s.Affinity;

  /**
   * How long the pod may take to stop. Engines drain in-flight requests, so this is often raised.
   * @default Duration.seconds(30)
   */
  readonly terminationGracePeriod?: Duration;

  /**
   * The pod's security context, rendered by cdk8s-plus (`ensureNonRoot` defaults to true there).
   * @default - none: the images' users and the containers' contexts apply
   */
  readonly securityContext?: PodSecurityContextProps;

  /**
   * RuntimeClass of the pod (e.g. `nvidia`).
   * @default - the cluster's default runtime
   */
  readonly runtimeClassName?: string;

  /**
   * PriorityClass of the pod.
   * @default - the cluster's default priority
   */
  readonly priorityClassName?: string;

  /**
   * Secrets with registry credentials for pulling the images.
   * @default - none
   */
  readonly imagePullSecrets?: string[];

  /**
   * Use the node's network namespace (RDMA setups do).
   * @default false
   */
  readonly hostNetwork?: boolean;
}

/** The label keys this library writes itself; a user label with one of them is refused. */
const OWN_LABEL_KEYS: readonly string[] = [KthenaPodLabels.MODEL_SERVING, KthenaPodLabels.ROLE, KthenaPodLabels.ENTRY];

interface PlusContainer {
  readonly container: Container;
  readonly props: KthenaContainerProps;
}

/**
 * The pod template of a ModelServing role (its entry pod, or its worker pods): built from
 * cdk8s-plus containers and volumes, or taken as a plain `k8s.PodSpec` with `fromPodSpec()`.
 * Containers added with `addContainer()` join either. `KthenaModelServing` adds the labels of
 * `KthenaPodLabels` when it renders the template.
 */
export class KthenaPodTemplate {
  /**
   * A template from a plain Kubernetes pod spec (all of it, for what the cdk8s-plus props lack).
   * @param spec the pod spec
   * @param metadata labels and annotations of the pods
   */
  public static fromPodSpec(spec: k8s.PodSpec, metadata: KthenaPodMetadata = {}): KthenaPodTemplate {
    const template = new KthenaPodTemplate({ labels: metadata.labels, annotations: metadata.annotations });
    template.baseSpec = spec;
    return template;
  }

  private readonly props: KthenaPodTemplateProps;
  /** The plain pod spec of `fromPodSpec`, which the cdk8s-plus parts are added to. */
  private baseSpec?: k8s.PodSpec;
  private readonly plusContainers: PlusContainer[] = [];
  private readonly plusInitContainers: PlusContainer[] = [];
  private readonly extraVolumes: Volume[];
  private readonly labels: { [key: string]: string };
  private readonly annotations: { [key: string]: string };

  public constructor(props: KthenaPodTemplateProps = {}) {
    this.props = props;
    this.extraVolumes = [...(props.volumes ?? [])];
    this.labels = { ...(props.labels ?? {}) };
    this.annotations = { ...(props.annotations ?? {}) };
    for (const c of props.containers ?? []) this.addContainer(c);
    for (const c of props.initContainers ?? []) this.addInitContainer(c);
  }

  /**
   * Adds a container, after those of the spec or props.
   * @returns the cdk8s-plus container, e.g. to `mount()` volumes on it
   */
  public addContainer(props: KthenaContainerProps): Container {
    const container = new Container(props);
    this.plusContainers.push({ container, props });
    return container;
  }

  /**
   * Adds an init container, after those of the spec or props.
   * @returns the cdk8s-plus container
   */
  public addInitContainer(props: KthenaContainerProps): Container {
    const container = new Container(props);
    this.plusInitContainers.push({ container, props });
    return container;
  }

  /** Adds a volume that no container mounts (mounted volumes are added by themselves). */
  public addVolume(volume: Volume): void {
    this.extraVolumes.push(volume);
  }

  /** Adds (or replaces) a pod label. */
  public addLabel(key: string, value: string): void {
    this.labels[key] = value;
  }

  /** Adds (or replaces) a pod annotation. */
  public addAnnotation(key: string, value: string): void {
    this.annotations[key] = value;
  }

  /** Names of the containers (not init containers), in order. */
  public get containerNames(): string[] {
    return [...(this.baseSpec?.containers ?? []).map((c) => c.name), ...this.plusContainers.map((c) => c.container.name)];
  }

  /**
   * The template in JSON, with `ownLabels` (the labels `KthenaModelServing` selects by) added,
   * and every problem with it at `path` (`spec.template.roles[0].entryTemplate`);
   * `defaultResources` lists the containers left with cdk8s-plus's default resources.
   * @internal
   */
  public _render(path: string, ownLabels: { [key: string]: string }): { template: any; errors: FieldError[]; defaultResources: string[] } {
    const errors: FieldError[] = [];
    const defaultResources: string[] = [];
    const base = this.baseSpec;
    const baseCount = base?.containers?.length ?? 0;
    const baseInitCount = base?.initContainers?.length ?? 0;
    const containers = [
      ...(base?.containers ?? []),
      ...this.plusContainers.map((c, i) => this.plusContainer(c, fieldPath(`${path}.spec.containers`, baseCount + i), errors, defaultResources)),
    ];
    const initContainers = [
      ...(base?.initContainers ?? []),
      ...this.plusInitContainers.map((c, i) => this.plusContainer(c, fieldPath(`${path}.spec.initContainers`, baseInitCount + i), errors, defaultResources)),
    ];
    const volumes = this.volumes(path, errors);
    const p = this.props;
    // A template has either a base spec (fromPodSpec, no pod-level props) or pod-level props.
    const spec: k8s.PodSpec = {
      ...(base ?? {}),
      containers,
      ...(initContainers.length > 0 && { initContainers }),
      ...(volumes.length > 0 && { volumes }),
      ...(p.serviceAccountName !== undefined && { serviceAccountName: p.serviceAccountName }),
      ...(p.nodeSelector !== undefined && { nodeSelector: { ...p.nodeSelector } }),
      ...(p.tolerations !== undefined && { tolerations: [...p.tolerations] }),
      ...(p.affinity !== undefined && { affinity: p.affinity }),
      ...(p.terminationGracePeriod !== undefined && {
        terminationGracePeriodSeconds: Math.round(p.terminationGracePeriod.toSeconds({ integral: false })),
      }),
      ...(p.securityContext !== undefined && { securityContext: new PodSecurityContext(p.securityContext)._toKube() }),
      ...(p.runtimeClassName !== undefined && { runtimeClassName: p.runtimeClassName }),
      ...(p.priorityClassName !== undefined && { priorityClassName: p.priorityClassName }),
      ...(p.imagePullSecrets !== undefined && { imagePullSecrets: p.imagePullSecrets.map((name) => ({ name })) }),
      ...(p.hostNetwork !== undefined && { hostNetwork: p.hostNetwork }),
    };
    errors.push(...this.specErrors(path, spec));
    errors.push(...this.labelErrors(`${path}.metadata.labels`));
    const labels = { ...this.labels, ...ownLabels };
    const annotations = this.annotations;
    const template: k8s.PodTemplateSpec = {
      metadata: {
        ...(Object.keys(labels).length > 0 && { labels }),
        ...(Object.keys(annotations).length > 0 && { annotations: { ...annotations } }),
      },
      spec,
    };
    return { template: k8s.toJson_PodTemplateSpec(template), errors, defaultResources };
  }

  /** A cdk8s-plus container as cdk8s-plus renders it, with the extended resources added. */
  private plusContainer(c: PlusContainer, path: string, errors: FieldError[], defaultResources: string[]): k8s.Container {
    const kube = c.container._toKube();
    if (c.props.resources === undefined) defaultResources.push(path);
    const extended = c.props.extendedResources ?? {};
    const limits: { [key: string]: k8s.Quantity } = {};
    for (const [name, count] of Object.entries(extended)) {
      const nameProblems = extendedResourceNameErrors(name);
      if (nameProblems.length > 0) errors.push(invalid(`${path}.resources.limits`, name, `is not an extended resource name: ${nameProblems.join('; ')}`));
      if (!Number.isInteger(count) || count < 1) errors.push(invalid(`${path}.resources.limits.${name}`, count, 'must be a whole number of at least 1'));
      limits[name] = k8s.Quantity.fromNumber(count);
    }
    if (Object.keys(limits).length === 0) return kube;
    return {
      ...kube,
      resources: { ...(kube.resources ?? {}), limits: { ...(kube.resources?.limits ?? {}), ...limits } },
    };
  }

  /**
   * The pod's volumes: the spec's, the extra ones, then those the cdk8s-plus containers mount,
   * each once. Two different volumes under one name are refused, as the API server would.
   */
  private volumes(path: string, errors: FieldError[]): k8s.Volume[] {
    const out: k8s.Volume[] = [...(this.baseSpec?.volumes ?? [])];
    const byName = new Map<string, Volume | undefined>(out.map((v) => [v.name, undefined]));
    const mounted = [...this.plusContainers, ...this.plusInitContainers].flatMap((c) => c.container.mounts.map((m) => m.volume));
    for (const volume of [...this.extraVolumes, ...mounted]) {
      if (byName.has(volume.name)) {
        if (byName.get(volume.name) !== volume) {
          errors.push(invalid(`${path}.spec.volumes`, volume.name, 'two different volumes have this name; volume names are unique in a pod'));
        }
        continue;
      }
      byName.set(volume.name, volume);
      out.push(volume._toKube());
    }
    return out;
  }

  /**
   * What Kthena's CRD and webhook refuse in a pod spec, and what the API server would refuse in
   * the pods: no container, two containers of one name (cdk8s-plus names every unnamed container
   * `main`), a blank image or one with whitespace.
   */
  private specErrors(path: string, spec: k8s.PodSpec): FieldError[] {
    const errors: FieldError[] = [];
    if (spec.containers.length === 0) {
      errors.push(required(`${path}.spec.containers`, 'a pod template needs at least one container (addContainer, or containers in props or the pod spec)'));
    }
    const seen = new Map<string, string>();
    const all: Array<[string, k8s.Container[]]> = [['containers', spec.containers], ['initContainers', spec.initContainers ?? []]];
    for (const [list, containers] of all) {
      containers.forEach((c, i) => {
        const at = fieldPath(`${path}.spec.${list}`, i);
        const earlier = seen.get(c.name);
        if (earlier !== undefined) {
          errors.push(invalid(`${at}.name`, c.name, `duplicates ${earlier}.name: container names are unique in a pod (cdk8s-plus names a container "main" unless given a name)`));
        } else {
          seen.set(c.name, at);
        }
        errors.push(...imageErrors(`${at}.image`, c.image));
      });
    }
    return errors;
  }

  private labelErrors(path: string): FieldError[] {
    const errors: FieldError[] = [];
    for (const key of Object.keys(this.labels)) {
      if (OWN_LABEL_KEYS.includes(key)) {
        errors.push(forbidden(`${path}.${key}`, 'is written by KthenaModelServing, which selects the pods by it (see KthenaPodLabels)'));
      } else {
        errors.push(...controllerLabelErrors(path, [key]));
      }
    }
    errors.push(...labelMapErrors(path, this.labels));
    return errors;
  }
}
