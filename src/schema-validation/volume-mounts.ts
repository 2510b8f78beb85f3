/**
 * Every volume a container mounts must be a volume of its pod: the API server refuses a
 * `volumeMounts[].name` (or `volumeDevices[].name`) that names none (Go-side, not in the schema).
 * An override that replaces `volumes` can drop one the generated containers still mount (`shm`).
 * The API server reports it at the mount's name; here it is reported at `volumes`, see below.
 */
import { joinPath, Report } from '../core/field-path';
import { quoted } from '../core/quoted-value';

type Json = any;

const CONTAINER_LISTS = ['initContainers', 'containers', 'ephemeralContainers'];

/**
 * Reports each mount of the pod spec at `at` that names no volume of the pod. The report is at the
 * pod's `volumes`, where the volume is missing (and where an override that dropped it wrote), and
 * names the mount.
 */
export function checkVolumeMounts(podSpec: Json, at: string, report: Report): void {
  const volumes = new Set<string>();
  for (const v of Array.isArray(podSpec.volumes) ? podSpec.volumes : []) {
    if (typeof v?.name === 'string') volumes.add(v.name);
  }
  const known = volumes.size === 0 ? 'the pod has none' : `the pod has ${[...volumes].map((n) => quoted(n)).join(', ')}`;
  for (const list of CONTAINER_LISTS) {
    const containers = podSpec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((c: Json, i: number) => {
      for (const field of ['volumeMounts', 'volumeDevices']) {
        (Array.isArray(c?.[field]) ? c[field] : []).forEach((m: Json, j: number) => {
          if (typeof m?.name !== 'string' || volumes.has(m.name)) return;
          const mount = joinPath(joinPath(joinPath(joinPath('', list, false), String(i), true), field, false), String(j), true);
          report(joinPath(at, 'volumes', false), `no volume named ${quoted(m.name)}, which ${mount} mounts (${known}): every mounted volume must be a volume of the pod`);
        });
      }
    });
  }
}
