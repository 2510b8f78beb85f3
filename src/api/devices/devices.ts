import { Size } from 'cdk8s';
import type { DeviceRequestSpec, DeviceSelectorSpec } from './device-request';

/**
 * One condition a DRA device must meet, rendered to a CEL device selector
 * (`resource.k8s.io/v1` `DeviceSelector.cel.expression`).
 *
 * Typed predicates render to the CEL one would write by hand; `DeviceSelector.cel` takes raw
 * CEL. Every selector is parsed and type-checked against the DRA device model (`device.driver`,
 * `device.attributes`, `device.capacity`, Kubernetes' quantity and semver functions) when the app
 * synthesizes; a bad one fails the synth with the expression and the position of the error.
 */
export class DeviceSelector {
  /**
   * Raw CEL over `device.driver`, `device.attributes["<domain>"].<name>` and
   * `device.capacity["<domain>"].<name>`, e.g.
   * `device.attributes["gpu.nvidia.com"].architecture == "Hopper"`.
   */
  public static cel(expression: string): DeviceSelector {
    return new DeviceSelector({ cel: expression });
  }

  /** Devices of one driver: `device.driver == "<driver>"`. */
  public static driver(driver: string): DeviceSelector {
    return new DeviceSelector({ driver });
  }

  /**
   * Devices whose `productName` attribute is `name`, e.g. `NVIDIA H100 80GB HBM3`.
   * @param domain the driver domain that publishes the attribute; default `gpu.nvidia.com`
   */
  public static productName(name: string, domain?: string): DeviceSelector {
    return new DeviceSelector({ productName: name, ...(domain !== undefined && { domain }) });
  }

  /**
   * Devices with at least `size` of `memory` capacity.
   * @param domain the driver domain that publishes the capacity; default `gpu.nvidia.com`
   */
  public static memoryAtLeast(size: Size, domain?: string): DeviceSelector {
    return new DeviceSelector({ memoryAtLeast: size.asString(), ...(domain !== undefined && { domain }) });
  }

  /**
   * Devices whose string attribute equals `value`.
   * @param attribute a qualified attribute name, `<domain>/<name>` (`gpu.nvidia.com/architecture`)
   */
  public static attributeEquals(attribute: string, value: string): DeviceSelector {
    return new DeviceSelector({ attribute, equals: value });
  }

  /**
   * Devices whose integer attribute equals `value`.
   * @param attribute a qualified attribute name, `<domain>/<name>`
   */
  public static attributeEqualsNumber(attribute: string, value: number): DeviceSelector {
    return new DeviceSelector({ attribute, equals: value });
  }

  /**
   * Devices whose boolean attribute equals `value`.
   * @param attribute a qualified attribute name, `<domain>/<name>`
   */
  public static attributeIs(attribute: string, value: boolean): DeviceSelector {
    return new DeviceSelector({ attribute, equals: value });
  }

  /**
   * Devices with at least `quantity` of a capacity.
   * @param capacity a qualified capacity name, `<domain>/<name>` (`gpu.nvidia.com/memory`)
   * @param quantity a Kubernetes quantity (`40Gi`, `100`)
   */
  public static capacityAtLeast(capacity: string, quantity: string): DeviceSelector {
    return new DeviceSelector({ capacity, atLeast: quantity });
  }

  /** The selector in the shape of the `inference.cdk8s.io/devices` annotation. */
  private readonly spec: DeviceSelectorSpec;

  private constructor(spec: DeviceSelectorSpec) {
    this.spec = spec;
  }

  /**
   * The selector as the `inference.cdk8s.io/devices` annotation writes it (`{memoryAtLeast: 40Gi}`).
   */
  public toJson(): any {
    return { ...this.spec };
  }
}

/**
 * A DRA device request: `count` devices of a device class that meet every selector, claimed by
 * each pod through a ResourceClaimTemplate.
 */
export interface DeviceRequest {
  /**
   * Name of the request in the claim (a DNS label), unique within the pods' requests.
   */
  readonly name: string;

  /**
   * The DeviceClass the devices come from, e.g. `gpu.nvidia.com` (NVIDIA's DRA driver).
   */
  readonly deviceClassName: string;

  /**
   * Devices of this request per pod (1 to 32; all requests of a pod together at most 32).
   * @default 1
   */
  readonly count?: number;

  /**
   * Conditions every device must meet.
   * @default - any device of the class
   */
  readonly selectors?: DeviceSelector[];
}

/** The request in the shape of the `inference.cdk8s.io/devices` annotation. */
/** @internal */
export function deviceRequestSpec(r: DeviceRequest): DeviceRequestSpec {
  return {
    name: r.name,
    deviceClassName: r.deviceClassName,
    ...(r.count !== undefined && { count: r.count }),
    ...(r.selectors !== undefined && { selectors: r.selectors.map((s) => s.toJson()) }),
  };
}

/** The pods of a deployment that DRA device requests are given for. */
export enum DevicePods {
  /** The serving pods of an aggregated deployment (`resources.gpu.devices`). */
  SERVING = 'resources',
  /** The prefill pods of a disaggregated deployment (`scaling.prefill.gpu.devices`). */
  PREFILL = 'prefill',
  /** The decode pods of a disaggregated deployment (`scaling.decode.gpu.devices`). */
  DECODE = 'decode',
}
