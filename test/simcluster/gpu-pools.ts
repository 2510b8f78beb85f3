/**
 * A catalogue of GPU node pools as the clouds label, size and taint them, and the Node and
 * ResourceSlice objects a simulated cluster (sim-cluster.ts) creates from them.
 *
 * What a node carries, and where each part comes from:
 * - The well-known labels every kubelet and cloud controller set: `kubernetes.io/hostname`,
 *   `kubernetes.io/os`, `kubernetes.io/arch`, `node.kubernetes.io/instance-type`,
 *   `topology.kubernetes.io/region` and `/zone` (kubernetes.io/docs/reference/labels-annotations-taints).
 * - The cloud's node-pool labels: GKE `cloud.google.com/gke-nodepool`, `cloud.google.com/machine-family`
 *   and, on GPU pools, `cloud.google.com/gke-accelerator` (the accelerator type GKE names:
 *   nvidia-h100-80gb, nvidia-h200-141gb, nvidia-a100-80gb, nvidia-tesla-a100, nvidia-l4 —
 *   cloud.google.com/kubernetes-engine/docs/how-to/gpus); EKS managed node groups
 *   `eks.amazonaws.com/nodegroup` and `eks.amazonaws.com/capacityType`.
 * - The labels NVIDIA's GPU feature discovery writes (GFD, part of the NVIDIA GPU Operator and of
 *   k8s-device-plugin): `nvidia.com/gpu.present`, `nvidia.com/gpu.product` (the NVML device name
 *   with spaces as dashes: `NVIDIA-H100-80GB-HBM3`), `nvidia.com/gpu.count`, `nvidia.com/gpu.memory`
 *   (the NVML total in MiB), `nvidia.com/gpu.family`, `nvidia.com/gpu.compute.major`/`.minor`,
 *   `nvidia.com/mig.capable`. GKE's own GPU stack does not run GFD; these assume the GPU Operator
 *   is installed, as the library's node selectors (`nvidia.com/gpu.product`) do.
 * - `nvidia.com/gpu` capacity and allocatable: what the NVIDIA device plugin (or GKE's) advertises,
 *   one per GPU.
 * - cpu/memory/pods/ephemeral-storage: the machine type's published size as capacity; allocatable
 *   as the kubelet computes it from the cloud's reservations — GKE's documented formula
 *   (cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes), or for EKS the AMI's
 *   kube-reserved (memory 255Mi + 11Mi per pod, CPU on GKE's sliding scale) — minus the kubelet's
 *   default hard eviction thresholds (memory.available<100Mi, nodefs.available<10%). 110 pods each.
 * - Taints: GKE taints every node of a GPU node pool `nvidia.com/gpu=present:NoSchedule`
 *   (cloud.google.com/kubernetes-engine/docs/how-to/gpus, "GPU node taints") — `taintGpuNodes`.
 *   EKS adds no taint to GPU node groups by default (the untainted pool set).
 *
 * ResourceSlices, as NVIDIA's DRA driver for GPUs (driver `gpu.nvidia.com`,
 * kubernetes-sigs/dra-driver-nvidia-gpu, cmd/gpu-kubelet-plugin/deviceinfo.go) publishes them in
 * resource.k8s.io/v1: one slice per node whose pool is named after the node, one device per GPU
 * named `gpu-<minor>`, with the attributes `type` ("gpu"), `uuid`, `productName` (the NVML name),
 * `brand`, `architecture`, `cudaComputeCapability`, `driverVersion`, `cudaDriverVersion` (versions),
 * `resource.kubernetes.io/pciBusID`, and one capacity, `memory`: NVML's total memory. And the
 * DeviceClass `gpu.nvidia.com` its Helm chart installs, selecting `device.driver == "gpu.nvidia.com"`.
 *
 * A node here advertises its GPUs both ways (device plugin and DRA driver) so that one pool set
 * serves examples of either kind; a real node runs one of the two for a given GPU. The scheduling
 * test applies one example at a time, so the two never hand out the same GPU twice in one example
 * unless the example itself mixes them.
 */
import * as crypto from 'crypto';
import { KubeObject } from '../envtest/kube-client';

/** One GPU model, with the facts NVML reports for it. */
export interface GpuModel {
  /** NVML's device name (`nvidia-smi --query-gpu=name`), the DRA driver's `productName`. */
  readonly nvmlName: string;
  /** NVML's total memory in MiB (`nvidia-smi --query-gpu=memory.total`), GFD's `nvidia.com/gpu.memory`. */
  readonly memoryMiB: number;
  /** The DRA driver's `architecture` attribute. */
  readonly architecture: 'Hopper' | 'Ampere' | 'Ada Lovelace';
  /** GFD's `nvidia.com/gpu.family`. */
  readonly family: 'hopper' | 'ampere' | 'ada-lovelace';
  /** CUDA compute capability, major.minor. */
  readonly computeCapability: string;
  readonly migCapable: boolean;
  /** GKE's accelerator type, where GKE offers the GPU. */
  readonly gkeAccelerator?: string;
}

/**
 * The GPU models of the catalogue. Each memory total is what `nvidia-smi` prints as the device's
 * total on that GPU (Memory-Usage column, e.g. "0MiB / 81559MiB"), taken from public nvidia-smi
 * outputs of each model found with the code search; the same figures appear as GFD's
 * `nvidia.com/gpu.memory` on such nodes (H100: 81559, L40S: 46068 in published GFD label dumps)
 * and as the DRA driver's `memory` capacity (H100: 81559Mi in a published ResourceSlice dump).
 * Architecture names as the DRA driver writes them ("Hopper" in that dump; "Ada Lovelace" in
 * modelplane's InferenceClass examples, which mirror the driver's slices).
 */
export const GPUS = {
  H100_80GB: { nvmlName: 'NVIDIA H100 80GB HBM3', memoryMiB: 81559, architecture: 'Hopper', family: 'hopper', computeCapability: '9.0', migCapable: true, gkeAccelerator: 'nvidia-h100-80gb' },
  H200: { nvmlName: 'NVIDIA H200', memoryMiB: 143771, architecture: 'Hopper', family: 'hopper', computeCapability: '9.0', migCapable: true, gkeAccelerator: 'nvidia-h200-141gb' },
  A100_80GB: { nvmlName: 'NVIDIA A100-SXM4-80GB', memoryMiB: 81920, architecture: 'Ampere', family: 'ampere', computeCapability: '8.0', migCapable: true, gkeAccelerator: 'nvidia-a100-80gb' },
  A100_40GB: { nvmlName: 'NVIDIA A100-SXM4-40GB', memoryMiB: 40960, architecture: 'Ampere', family: 'ampere', computeCapability: '8.0', migCapable: true, gkeAccelerator: 'nvidia-tesla-a100' },
  L4: { nvmlName: 'NVIDIA L4', memoryMiB: 23034, architecture: 'Ada Lovelace', family: 'ada-lovelace', computeCapability: '8.9', migCapable: false, gkeAccelerator: 'nvidia-l4' },
  L40S: { nvmlName: 'NVIDIA L40S', memoryMiB: 46068, architecture: 'Ada Lovelace', family: 'ada-lovelace', computeCapability: '8.9', migCapable: false },
  A10G: { nvmlName: 'NVIDIA A10G', memoryMiB: 23028, architecture: 'Ampere', family: 'ampere', computeCapability: '8.6', migCapable: false },
} as const satisfies Record<string, GpuModel>;

/** GFD's `nvidia.com/gpu.product`: the NVML name with spaces replaced by dashes. */
export function gpuProductLabel(gpu: GpuModel): string {
  return gpu.nvmlName.replace(/ /g, '-');
}

/** The NVIDIA driver the simulated nodes run (a 580 production branch release; CUDA 13.0). */
export const DRIVER_VERSION = '580.95.05';
export const CUDA_DRIVER_VERSION = '13.0.0';
export const DRA_DRIVER = 'gpu.nvidia.com';

/** One node pool: `count` identical nodes of one machine type. */
export interface NodePool {
  /** Pool name (GKE node pool, EKS node group); node names are `<name>-<i>`. */
  readonly name: string;
  readonly cloud: 'gke' | 'eks';
  readonly instanceType: string;
  readonly zone: string;
  readonly cpu: number;
  /** Machine memory in GiB (GCE and EC2 both publish memory in binary units). */
  readonly memoryGiB: number;
  /** Boot disk, GiB. */
  readonly diskGiB: number;
  readonly gpu?: GpuModel;
  readonly gpuCount?: number;
  /** Nodes in the pool (default 1). */
  readonly count?: number;
}

const GKE_ZONE = 'us-central1-a';
const EKS_ZONE = 'us-east-1a';

/**
 * The GPU pools. Machine shapes from the clouds' machine-type tables (GCE accelerator-optimized
 * A3/A2/G2 machine series; EC2 P5, P4de, G6e, G5 instance types).
 */
export const GPU_POOLS: NodePool[] = [
  { name: 'a3-h100', cloud: 'gke', instanceType: 'a3-highgpu-8g', zone: GKE_ZONE, cpu: 208, memoryGiB: 1872, diskGiB: 200, gpu: GPUS.H100_80GB, gpuCount: 8 },
  { name: 'p5-h100', cloud: 'eks', instanceType: 'p5.48xlarge', zone: EKS_ZONE, cpu: 192, memoryGiB: 2048, diskGiB: 200, gpu: GPUS.H100_80GB, gpuCount: 8 },
  { name: 'a3-h200', cloud: 'gke', instanceType: 'a3-ultragpu-8g', zone: GKE_ZONE, cpu: 224, memoryGiB: 2952, diskGiB: 200, gpu: GPUS.H200, gpuCount: 8 },
  { name: 'a2-a100-80gb', cloud: 'gke', instanceType: 'a2-ultragpu-8g', zone: GKE_ZONE, cpu: 96, memoryGiB: 1360, diskGiB: 200, gpu: GPUS.A100_80GB, gpuCount: 8 },
  { name: 'a2-a100-40gb', cloud: 'gke', instanceType: 'a2-highgpu-8g', zone: GKE_ZONE, cpu: 96, memoryGiB: 680, diskGiB: 200, gpu: GPUS.A100_40GB, gpuCount: 8 },
  { name: 'g2-l4', cloud: 'gke', instanceType: 'g2-standard-24', zone: GKE_ZONE, cpu: 24, memoryGiB: 96, diskGiB: 100, gpu: GPUS.L4, gpuCount: 2, count: 2 },
  { name: 'g6e-l40s', cloud: 'eks', instanceType: 'g6e.12xlarge', zone: EKS_ZONE, cpu: 48, memoryGiB: 384, diskGiB: 200, gpu: GPUS.L40S, gpuCount: 4 },
  { name: 'g5-a10g', cloud: 'eks', instanceType: 'g5.12xlarge', zone: EKS_ZONE, cpu: 48, memoryGiB: 192, diskGiB: 200, gpu: GPUS.A10G, gpuCount: 4 },
  { name: 'g5-a10g-8x', cloud: 'eks', instanceType: 'g5.48xlarge', zone: EKS_ZONE, cpu: 192, memoryGiB: 768, diskGiB: 200, gpu: GPUS.A10G, gpuCount: 8, count: 2 },
];

/** The CPU-only pool: GKE's general-purpose n2-standard-16 (16 vCPU, 64 GB). */
export const CPU_POOLS: NodePool[] = [
  { name: 'cpu', cloud: 'gke', instanceType: 'n2-standard-16', zone: GKE_ZONE, cpu: 16, memoryGiB: 64, diskGiB: 100, count: 2 },
];

export const ALL_POOLS: NodePool[] = [...GPU_POOLS, ...CPU_POOLS];

/** GKE's GPU node taint. */
export const GKE_GPU_TAINT = { key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' } as const;

/** The annotation KWOK's `--manage-nodes-with-annotation-selector` selects the harness's nodes by. */
export const KWOK_NODE_ANNOTATION = 'kwok.x-k8s.io/node';

const MAX_PODS = 110;
const MiB = 1;
const GiB = 1024 * MiB;

/** Memory the cloud reserves for the system and kubelet, in MiB. */
function reservedMemoryMiB(pool: NodePool): number {
  if (pool.cloud === 'eks') return 255 + 11 * MAX_PODS;
  // GKE: 25% of the first 4 GiB, 20% of the next 4, 10% of the next 8, 6% of the next 112, 2% above 128.
  const total = pool.memoryGiB * GiB;
  const tiers: Array<[number, number]> = [[4 * GiB, 0.25], [4 * GiB, 0.2], [8 * GiB, 0.1], [112 * GiB, 0.06], [Infinity, 0.02]];
  let left = total;
  let reserved = 0;
  for (const [size, share] of tiers) {
    const part = Math.min(left, size);
    reserved += part * share;
    left -= part;
    if (left <= 0) break;
  }
  return Math.ceil(reserved);
}

/** CPU reserved, in millicores: 6% of the first core, 1% of the second, 0.5% of the next two, 0.25% above four. */
function reservedCpuMilli(pool: NodePool): number {
  const tiers: Array<[number, number]> = [[1, 0.06], [1, 0.01], [2, 0.005], [Infinity, 0.0025]];
  let left = pool.cpu;
  let reserved = 0;
  for (const [size, share] of tiers) {
    const part = Math.min(left, size);
    reserved += part * share * 1000;
    left -= part;
    if (left <= 0) break;
  }
  return Math.ceil(reserved);
}

/** Capacity and allocatable of one node of the pool. */
export function nodeResources(pool: NodePool): { capacity: Record<string, string>; allocatable: Record<string, string> } {
  const diskKi = pool.diskGiB * 1024 * 1024;
  const capacity: Record<string, string> = {
    'cpu': String(pool.cpu),
    'memory': `${pool.memoryGiB * 1024 * 1024}Ki`,
    'pods': String(MAX_PODS),
    'ephemeral-storage': `${diskKi}Ki`,
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
  };
  const allocatable: Record<string, string> = {
    'cpu': `${pool.cpu * 1000 - reservedCpuMilli(pool)}m`,
    'memory': `${(pool.memoryGiB * GiB - reservedMemoryMiB(pool) - 100) * 1024}Ki`,
    'pods': String(MAX_PODS),
    'ephemeral-storage': `${Math.floor(diskKi * 0.9)}Ki`,
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
  };
  if (pool.gpu && pool.gpuCount) {
    capacity['nvidia.com/gpu'] = String(pool.gpuCount);
    allocatable['nvidia.com/gpu'] = String(pool.gpuCount);
  }
  return { capacity, allocatable };
}

export interface NodeOptions {
  /** GKE's `nvidia.com/gpu=present:NoSchedule` on every GPU node. */
  readonly taintGpuNodes?: boolean;
}

/** Node names of a pool. */
export function nodeNames(pool: NodePool): string[] {
  return Array.from({ length: pool.count ?? 1 }, (_, i) => `${pool.name}-${i}`);
}

/** The Node objects of the pools (with status: KWOK's node-initialize stage keeps a node's capacity and allocatable). */
export function nodesOf(pools: NodePool[], options: NodeOptions = {}): KubeObject[] {
  const out: KubeObject[] = [];
  let ip = 10;
  for (const pool of pools) {
    for (const name of nodeNames(pool)) {
      const labels: Record<string, string> = {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': pool.instanceType,
        'topology.kubernetes.io/zone': pool.zone,
        'topology.kubernetes.io/region': pool.zone.replace(/-[a-z]$/, ''),
      };
      if (pool.cloud === 'gke') {
        labels['cloud.google.com/gke-nodepool'] = pool.name;
        labels['cloud.google.com/machine-family'] = pool.instanceType.split('-')[0];
        if (pool.gpu?.gkeAccelerator) labels['cloud.google.com/gke-accelerator'] = pool.gpu.gkeAccelerator;
      } else {
        labels['eks.amazonaws.com/nodegroup'] = pool.name;
        labels['eks.amazonaws.com/capacityType'] = 'ON_DEMAND';
      }
      if (pool.gpu && pool.gpuCount) {
        const [major, minor] = pool.gpu.computeCapability.split('.');
        Object.assign(labels, {
          'nvidia.com/gpu.present': 'true',
          'nvidia.com/gpu.product': gpuProductLabel(pool.gpu),
          'nvidia.com/gpu.count': String(pool.gpuCount),
          'nvidia.com/gpu.memory': String(pool.gpu.memoryMiB),
          'nvidia.com/gpu.family': pool.gpu.family,
          'nvidia.com/gpu.compute.major': major,
          'nvidia.com/gpu.compute.minor': minor,
          'nvidia.com/mig.capable': String(pool.gpu.migCapable),
          'nvidia.com/cuda.driver.major': DRIVER_VERSION.split('.')[0],
        });
      }
      const taints = pool.gpu && options.taintGpuNodes ? [{ ...GKE_GPU_TAINT }] : [];
      const { capacity, allocatable } = nodeResources(pool);
      out.push({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name, labels, annotations: { [KWOK_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' } },
        spec: { taints, providerID: pool.cloud === 'gke' ? `gce://sim/${pool.zone}/${name}` : `aws:///${pool.zone}/i-${hex(name, 17)}` },
        status: {
          capacity,
          allocatable,
          addresses: [{ type: 'InternalIP', address: nodeIp(ip++) }, { type: 'Hostname', address: name }],
        },
      });
    }
  }
  return out;
}

/** The `n`th node address in 10.128.0.0/16 (10.128.0.n below 256; large pools go on into 10.128.1.x). */
function nodeIp(n: number): string {
  return `10.128.${Math.floor(n / 256)}.${n % 256}`;
}

/** The DeviceClass NVIDIA's DRA driver chart installs for full GPUs. */
export function gpuDeviceClass(): KubeObject {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'DeviceClass',
    metadata: { name: DRA_DRIVER },
    spec: { selectors: [{ cel: { expression: `device.driver == "${DRA_DRIVER}"` } }] },
  };
}

/** The ResourceSlices of the pools' GPU nodes, one per node. */
export function resourceSlicesOf(pools: NodePool[]): KubeObject[] {
  const out: KubeObject[] = [];
  for (const pool of pools) {
    if (!pool.gpu || !pool.gpuCount) continue;
    const gpu = pool.gpu;
    for (const node of nodeNames(pool)) {
      const devices = Array.from({ length: pool.gpuCount }, (_, minor) => ({
        name: `gpu-${minor}`,
        attributes: {
          'type': { string: 'gpu' },
          'uuid': { string: gpuUuid(node, minor) },
          'productName': { string: gpu.nvmlName },
          'brand': { string: 'Nvidia' },
          'architecture': { string: gpu.architecture },
          'cudaComputeCapability': { version: `${gpu.computeCapability}.0` },
          'driverVersion': { version: semverOf(DRIVER_VERSION) },
          'cudaDriverVersion': { version: CUDA_DRIVER_VERSION },
          'resource.kubernetes.io/pciBusID': { string: `0000:${(0x18 + minor * 0x10).toString(16).padStart(2, '0')}:00.0` },
        },
        capacity: { memory: { value: `${gpu.memoryMiB}Mi` } },
      }));
      out.push({
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceSlice',
        metadata: { name: `${node}-${DRA_DRIVER}` },
        spec: { driver: DRA_DRIVER, nodeName: node, pool: { name: node, generation: 1, resourceSliceCount: 1 }, devices },
      });
    }
  }
  return out;
}

/**
 * The driver publishes versions through Masterminds/semver's parse-and-print, which drops leading
 * zeros ("580.95.05" becomes "580.95.5"; the API server rejects a leading zero as not semver 2.0.0).
 */
function semverOf(v: string): string {
  return v.split('.').map((p) => String(Number(p))).join('.');
}

/** A stable GPU UUID in NVML's format (`GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`). */
function gpuUuid(node: string, minor: number): string {
  const h = hex(`${node}/${minor}`, 32);
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function hex(seed: string, length: number): string {
  return crypto.createHash('sha256').update(seed).digest('hex').slice(0, length);
}
