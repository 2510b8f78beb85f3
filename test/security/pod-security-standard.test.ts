import { podSecurityViolations, PodSecurityViolation } from '../../src/security/pod-security-standard';

/** A pod that passes restricted: every later case changes one field of it. */
function restrictedPod(): any {
  return {
    securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
    containers: [{
      name: 'main',
      image: 'example.com/app:1.0.0',
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    }],
    volumes: [{ name: 'tmp', emptyDir: {} }],
  };
}

function checks(violations: PodSecurityViolation[]): string[] {
  return violations.map((v) => `${v.level}:${v.check}:${v.path}`);
}

describe('podSecurityViolations', () => {
  test('a minimal pod passes baseline but not restricted', () => {
    const pod = { containers: [{ name: 'main', image: 'app:1' }] };
    expect(podSecurityViolations(pod, 'baseline')).toEqual([]);
    expect(checks(podSecurityViolations(pod, 'restricted')).sort()).toEqual([
      'restricted:capabilities:containers[0].securityContext.capabilities.drop',
      'restricted:privilegeEscalation:containers[0].securityContext.allowPrivilegeEscalation',
      'restricted:runAsNonRoot:containers[0].securityContext.runAsNonRoot',
      'restricted:seccomp:containers[0].securityContext.seccompProfile.type',
    ]);
  });

  test('the hardened pod passes both levels', () => {
    expect(podSecurityViolations(restrictedPod(), 'restricted')).toEqual([]);
    expect(podSecurityViolations(restrictedPod(), 'baseline')).toEqual([]);
  });

  describe('baseline controls (also broken at restricted)', () => {
    const cases: Array<[string, (pod: any) => void, string]> = [
      ['hostNetwork', (p) => { p.hostNetwork = true; }, 'hostNamespaces:hostNetwork'],
      ['hostPID', (p) => { p.hostPID = true; }, 'hostNamespaces:hostPID'],
      ['hostIPC', (p) => { p.hostIPC = true; }, 'hostNamespaces:hostIPC'],
      ['privileged', (p) => { p.containers[0].securityContext.privileged = true; }, 'privileged:containers[0].securityContext.privileged'],
      ['SYS_ADMIN', (p) => { p.containers[0].securityContext.capabilities.add = ['SYS_ADMIN']; }, 'capabilities:containers[0].securityContext.capabilities.add[0]'],
      ['hostPath', (p) => { p.volumes.push({ name: 'h', hostPath: { path: '/' } }); }, 'hostPathVolumes:volumes[1].hostPath'],
      ['hostPort', (p) => { p.containers[0].ports = [{ containerPort: 80, hostPort: 8080 }]; }, 'hostPorts:containers[0].ports[0].hostPort'],
      ['AppArmor Unconfined', (p) => { p.securityContext.appArmorProfile = { type: 'Unconfined' }; }, 'appArmor:securityContext.appArmorProfile.type'],
      ['SELinux type', (p) => { p.containers[0].securityContext.seLinuxOptions = { type: 'spc_t' }; }, 'seLinux:containers[0].securityContext.seLinuxOptions.type'],
      ['SELinux user', (p) => { p.securityContext.seLinuxOptions = { user: 'system_u' }; }, 'seLinux:securityContext.seLinuxOptions.user'],
      ['procMount', (p) => { p.containers[0].securityContext.procMount = 'Unmasked'; }, 'procMount:containers[0].securityContext.procMount'],
      ['seccomp Unconfined', (p) => { p.securityContext.seccompProfile = { type: 'Unconfined' }; }, 'seccomp:securityContext.seccompProfile.type'],
      ['unsafe sysctl', (p) => { p.securityContext.sysctls = [{ name: 'kernel.msgmax', value: '1' }]; }, 'sysctls:securityContext.sysctls[0].name'],
      ['hostProcess', (p) => { p.securityContext.windowsOptions = { hostProcess: true }; }, 'hostProcess:securityContext.windowsOptions.hostProcess'],
      ['probe host', (p) => { p.containers[0].livenessProbe = { httpGet: { host: '10.0.0.1', port: 80 } }; }, 'hostProbes:containers[0].livenessProbe.httpGet.host'],
      ['lifecycle host', (p) => { p.containers[0].lifecycle = { preStop: { tcpSocket: { host: 'node', port: 1 } } }; }, 'hostProbes:containers[0].lifecycle.preStop.tcpSocket.host'],
    ];
    test.each(cases)('fails on %s', (_name, weaken, expected) => {
      const pod = restrictedPod();
      weaken(pod);
      const baseline = podSecurityViolations(pod, 'baseline');
      expect(checks(baseline)).toEqual([`baseline:${expected}`]);
      expect(baseline[0].message).toMatch(/allowed|not allowed/);
      // Restricted includes every baseline rule.
      expect(checks(podSecurityViolations(pod, 'restricted'))).toContain(`baseline:${expected}`);
    });

    test('allows what the standard allows', () => {
      const pod = restrictedPod();
      Object.assign(pod, { hostNetwork: false, hostPID: false, hostIPC: false });
      Object.assign(pod.containers[0].securityContext, { privileged: false, procMount: 'Default', seLinuxOptions: { type: 'container_init_t', level: 's0:c1' } });
      pod.containers[0].ports = [{ containerPort: 80, hostPort: 0 }];
      pod.containers[0].readinessProbe = { httpGet: { host: '', port: 80 } };
      pod.securityContext.sysctls = [{ name: 'net.ipv4.ip_unprivileged_port_start', value: '0' }];
      pod.securityContext.appArmorProfile = { type: 'Localhost', localhostProfile: 'p' };
      expect(podSecurityViolations(pod, 'baseline')).toEqual([]);
      // Baseline allows the runtime's default capabilities, restricted only NET_BIND_SERVICE.
      pod.containers[0].securityContext.capabilities.add = ['CHOWN', 'NET_BIND_SERVICE'];
      expect(podSecurityViolations(pod, 'baseline')).toEqual([]);
      expect(checks(podSecurityViolations(pod, 'restricted'))).toEqual(['restricted:capabilities:containers[0].securityContext.capabilities.add[0]']);
    });
  });

  describe('restricted controls (baseline allows them)', () => {
    const cases: Array<[string, (pod: any) => void, string[]]> = [
      ['a hostPath-free non-core volume', (p) => { p.volumes.push({ name: 'n', nfs: { server: 's', path: '/' } }); }, ['volumeTypes:volumes[1].nfs']],
      ['allowPrivilegeEscalation true', (p) => { p.containers[0].securityContext.allowPrivilegeEscalation = true; }, ['privilegeEscalation:containers[0].securityContext.allowPrivilegeEscalation']],
      ['runAsNonRoot false on the container', (p) => { p.containers[0].securityContext.runAsNonRoot = false; }, ['runAsNonRoot:containers[0].securityContext.runAsNonRoot']],
      ['runAsNonRoot false on the pod', (p) => { p.securityContext.runAsNonRoot = false; }, ['runAsNonRoot:securityContext.runAsNonRoot', 'runAsNonRoot:containers[0].securityContext.runAsNonRoot']],
      ['runAsUser 0 on the pod', (p) => { p.securityContext.runAsUser = 0; }, ['runAsUser:securityContext.runAsUser']],
      ['runAsUser 0 on the container', (p) => { p.containers[0].securityContext.runAsUser = 0; }, ['runAsUser:containers[0].securityContext.runAsUser']],
      ['no seccomp profile', (p) => { delete p.securityContext.seccompProfile; }, ['seccomp:containers[0].securityContext.seccompProfile.type']],
      ['capabilities not dropped', (p) => { p.containers[0].securityContext.capabilities = { drop: ['NET_RAW'] }; }, ['capabilities:containers[0].securityContext.capabilities.drop']],
    ];
    test.each(cases)('fails on %s', (_name, weaken, expected) => {
      const pod = restrictedPod();
      weaken(pod);
      expect(podSecurityViolations(pod, 'baseline')).toEqual([]);
      expect(checks(podSecurityViolations(pod, 'restricted'))).toEqual(expected.map((e) => `restricted:${e}`));
    });
  });

  describe('precedence of container over pod securityContext', () => {
    test('a container may set runAsNonRoot and seccomp itself when the pod does not', () => {
      const pod = restrictedPod();
      pod.securityContext = {};
      Object.assign(pod.containers[0].securityContext, { runAsNonRoot: true, seccompProfile: { type: 'Localhost', localhostProfile: 'x.json' } });
      expect(podSecurityViolations(pod, 'restricted')).toEqual([]);
    });

    test('a container inherits the pod settings, and its own false wins over the pod true', () => {
      const pod = restrictedPod();
      pod.containers.push({ name: 'b', image: 'b:1', securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: false } });
      expect(checks(podSecurityViolations(pod, 'restricted'))).toEqual(['restricted:runAsNonRoot:containers[1].securityContext.runAsNonRoot']);
    });

    test('a container Unconfined seccomp fails even under a RuntimeDefault pod', () => {
      const pod = restrictedPod();
      pod.containers[0].securityContext.seccompProfile = { type: 'Unconfined' };
      expect(checks(podSecurityViolations(pod, 'restricted'))).toEqual(['baseline:seccomp:containers[0].securityContext.seccompProfile.type']);
    });
  });

  test('checks initContainers and ephemeralContainers too', () => {
    const pod = restrictedPod();
    pod.initContainers = [{ name: 'init', image: 'i:1', securityContext: { privileged: true } }];
    pod.ephemeralContainers = [{ name: 'debug', image: 'd:1', securityContext: { capabilities: { add: ['SYS_PTRACE'] } } }];
    expect(checks(podSecurityViolations(pod, 'baseline'))).toEqual([
      'baseline:privileged:initContainers[0].securityContext.privileged',
      'baseline:capabilities:ephemeralContainers[0].securityContext.capabilities.add[0]',
    ]);
    const restricted = checks(podSecurityViolations(pod, 'restricted'));
    expect(restricted).toContain('restricted:privilegeEscalation:initContainers[0].securityContext.allowPrivilegeEscalation');
    expect(restricted).toContain('restricted:capabilities:ephemeralContainers[0].securityContext.capabilities.drop');
  });

  test('Windows pods are exempt from the Linux-only restricted rules', () => {
    const pod = { os: { name: 'windows' }, securityContext: { runAsNonRoot: true }, containers: [{ name: 'w', image: 'w:1' }] };
    expect(podSecurityViolations(pod, 'restricted')).toEqual([]);
  });

  test('reports the offending value', () => {
    const pod = restrictedPod();
    pod.volumes.push({ name: 'h', hostPath: { path: '/var/run/docker.sock' } });
    expect(podSecurityViolations(pod, 'baseline')[0]).toMatchObject({ value: { path: '/var/run/docker.sock' }, message: 'hostPath volumes are not allowed' });
  });

  test('does not throw on malformed input', () => {
    expect(podSecurityViolations(undefined, 'restricted')).toEqual([]);
    expect(podSecurityViolations({ containers: 'x', volumes: [null, 3], securityContext: 5 }, 'restricted')).toEqual([]);
  });
});
