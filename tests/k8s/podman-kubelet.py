#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""tests/k8s/podman-kubelet.py - a STAND-IN for the kubelet: runs one pod
template of rendered manifests (kustomize output) with podman, a real OCI
runtime (crun), the way a kubelet on containerd would start it.

  podman-kubelet.py RENDERED.yaml KIND/NAME [options] [-- podman global opts]

Taken from the YAML by code (nothing restated by hand): the image's
command/args (command replaces the image's ENTRYPOINT, args its CMD), env
(value and the fieldRefs metadata.name, metadata.namespace, spec.nodeName,
status.podIP), the pod's and the container's securityContext merged as the
kubelet merges them (runAsUser, runAsGroup, runAsNonRoot - refused like the
kubelet's CreateContainerConfigError when the user would be root -,
capabilities add/drop over containerd's default set, privileged,
allowPrivilegeEscalation, readOnlyRootFilesystem - without podman's tmpfs
on /tmp, so only volumes are writable -, seccompProfile RuntimeDefault,
podman's default, or Unconfined; fsGroup as the user's supplementary group
and the group of secret files), $(VAR) in args (and env values) expanded
from the container's env as the kubelet does ($$ for a $, an undefined
name left as it is), resources.limits (cpu, memory), volumeMounts of
downwardAPI, secret (from --secret) and emptyDir volumes, the termination message
(terminationMessagePath bind-mounted from a file the kubelet made, read back
after the container ends, FallbackToLogsOnError), initContainers first and in
order (one failing ends the pod). Limits are those containerd gives by
default on a systemd node: RLIMIT_MEMLOCK 8 MiB (systemd's default since
v253 and the kernel's since 5.16), RLIMIT_NOFILE 1048576.

What stands in for what cannot run here (docs/kubernetes.md names them):
  --device-plugin RES=DEV[,DEV...]  the RDMA shared device plugin: a
        container requesting RES gets these device nodes
  --add-host NAME:IP                cluster DNS for a Service's name
  --image NAME=LOCAL                the registry: image NAME (any tag) is
        the locally built LOCAL
  --node NODE / --pod POD           spec.nodeName / metadata.name
  --pod-ip IP                       status.podIP
  --secret NAME=DIR                 the API server's Secret NAME: its items
        are DIR's files (a secret volume of a Secret not given is refused,
        as a kubelet leaves such a pod in ContainerCreating)
  --network-status JSON             Multus's network-status annotation
  the pod network and Multus's net1: the node's own network (host
        networking; the lab names the node's RDMA link net1)
  --set-env CONTAINER:NAME=VALUE    what `kubectl set env` would change
--volumes DIR: where the pod's volumes are made (default OUT/volumes; a
local filesystem: secret files are chowned to fsGroup). Results: --out DIR gets CONTAINER.termination-log and CONTAINER.exit for
each container; the containers' output is streamed to stdout. Exit status:
the main container's (or the failing init container's); 2 for a spec this
stand-in cannot run (it says which field).
"""
import json
import os
import re
import subprocess
import sys

import yaml

# containerd's default capability set (oci.defaultUnixCaps / CRI default)
CONTAINERD_CAPS = ["CHOWN", "DAC_OVERRIDE", "FSETID", "FOWNER", "MKNOD",
                   "NET_RAW", "SETGID", "SETUID", "SETFCAP", "SETPCAP",
                   "NET_BIND_SERVICE", "SYS_CHROOT", "KILL", "AUDIT_WRITE"]
DEFAULT_ULIMITS = ["memlock=8388608:8388608", "nofile=1048576:1048576"]
# seccompProfile type -> podman flags (RuntimeDefault: podman's default
# profile, as containerd's is the runtime's)
SECCOMP = {"RuntimeDefault": [], "Unconfined": ["--security-opt", "seccomp=unconfined"]}
WORKLOADS = {"Pod": lambda o: o, "Job": lambda o: o["spec"]["template"],
             "Deployment": lambda o: o["spec"]["template"],
             "StatefulSet": lambda o: o["spec"]["template"],
             "DaemonSet": lambda o: o["spec"]["template"]}


def die(msg, code=2):
    print(f"podman-kubelet: {msg}", file=sys.stderr)
    sys.exit(code)


def parse_args(argv):
    a = {"device_plugin": {}, "add_host": [], "image": {}, "node": "node",
         "pod": None, "network_status": "[]", "set_env": [], "out": None,
         "podman": [], "pod_ip": "", "secret": {}, "volumes": None}
    if len(argv) < 2:
        die("usage: podman-kubelet.py RENDERED.yaml KIND/NAME [options]")
    a["file"], a["what"] = argv[0], argv[1]
    i = 2
    while i < len(argv):
        k = argv[i]
        if k == "--":
            a["podman"] = argv[i + 1:]
            break
        if i + 1 >= len(argv):
            die(f"{k}: needs a value")
        v = argv[i + 1]
        if k == "--device-plugin":
            res, _, devs = v.partition("=")
            a["device_plugin"][res] = devs.split(",")
        elif k in ("--image", "--secret"):
            n, _, local = v.partition("=")
            a[k[2:]][n] = local
        elif k in ("--add-host", "--set-env"):
            a[k[2:].replace("-", "_")].append(v)
        elif k in ("--node", "--pod", "--pod-ip", "--network-status", "--out", "--volumes"):
            a[k[2:].replace("-", "_")] = v
        else:
            die(f"unknown option {k}")
        i += 2
    return a


def find_template(docs, what):
    kind, _, name = what.partition("/")
    for d in docs:
        if d and d.get("kind") == kind and d["metadata"]["name"] == name:
            if kind not in WORKLOADS:
                die(f"{kind}: not a workload this stand-in runs")
            return WORKLOADS[kind](d)
    die(f"{what}: not in the rendered manifests")


def image_of(spec_image, images):
    name = spec_image.split("@")[0].rsplit(":", 1)[0] if ":" in spec_image.split("/")[-1] else spec_image
    if name not in images:
        die(f"image {spec_image}: no local image given (--image {name}=LOCAL)")
    return images[name]


def image_config(image, podman):
    r = subprocess.run(["podman", *podman, "image", "inspect", "--format",
                        "{{json .Config}}", image], capture_output=True, text=True)
    if r.returncode:
        die(f"image {image}: {r.stderr.strip()}")
    return json.loads(r.stdout)


def security(pod_sc, c, cfg):
    """(podman flags, wrapper argv) for the merged securityContext, as the
    kubelet merges the pod's and the container's (the container's wins).
    podman hands --cap-add capabilities to a non-root user (ambient set);
    containerd does not: they stay in the bounding set, and only a file
    capability makes one effective. So a non-root container starts as root
    and drops to its user with setpriv (util-linux, in every Debian image),
    clearing the inheritable and ambient sets and keeping the bounding set:
    what containerd gives that user."""
    sc = dict(pod_sc or {})
    sc.update(c.get("securityContext") or {})
    img_uid, _, img_gid = (cfg.get("User") or "0").partition(":")
    uid = str(sc.get("runAsUser", img_uid or "0"))
    gid = str(sc.get("runAsGroup", img_gid or (uid if "runAsUser" in sc else "0")))
    if sc.get("runAsNonRoot") and uid in ("0", "root"):
        die(f"container {c['name']}: runAsNonRoot and the user is root "
            "(the kubelet's CreateContainerConfigError)", 3)
    if not uid.isdigit() or not gid.isdigit():
        die(f"container {c['name']}: user {uid}:{gid}: only numeric ids are supported")
    flags, wrap = ["--user", "0:0"], []
    fsg = (pod_sc or {}).get("fsGroup")
    if fsg is not None:
        flags += ["--group-add", str(fsg)]
    if uid != "0":
        groups = f"--groups={fsg}" if fsg is not None else "--clear-groups"
        wrap = ["setpriv", f"--reuid={uid}", f"--regid={gid}", groups,
                "--inh-caps=-all", "--ambient-caps=-all", "--"]
    seccomp = (sc.get("seccompProfile") or {}).get("type", "RuntimeDefault")
    if seccomp not in SECCOMP:
        die(f"container {c['name']}: seccompProfile {seccomp}: only RuntimeDefault and Unconfined are supported")
    flags += SECCOMP[seccomp]
    if sc.get("privileged"):
        return flags + ["--privileged"], wrap
    caps = sc.get("capabilities") or {}
    drop = {x.upper().removeprefix("CAP_") for x in caps.get("drop", [])}
    keep = [] if "ALL" in drop else [x for x in CONTAINERD_CAPS if x not in drop]
    add = [x.upper().removeprefix("CAP_") for x in caps.get("add", [])]
    caps = list(dict.fromkeys(keep + add))
    if wrap:  # setpriv needs these to drop to the user, then bounds the
        # user's set to the container's own, as the runtime would
        wrap[1:1] = ["--bounding-set=" + ",".join(["-all"] + [f"+{x.lower()}" for x in caps])]
        caps = list(dict.fromkeys(caps + ["SETUID", "SETGID", "SETPCAP"]))
    flags += ["--cap-drop", "all"]
    for cap in caps:
        flags += ["--cap-add", cap]
    if sc.get("allowPrivilegeEscalation") is False:
        flags += ["--security-opt", "no-new-privileges"]
    if sc.get("readOnlyRootFilesystem"):
        flags += ["--read-only", "--read-only-tmpfs=false"]
    return flags, wrap


def field(path, a):
    return {"metadata.name": a["pod"], "metadata.namespace": "default",
            "spec.nodeName": a["node"], "status.podIP": a["pod_ip"],
            "status.hostIP": ""}.get(path)


def expand(text, env):
    """$(VAR) as the kubelet expands it in args and env values: from the
    container's env; $$ is a $; an undefined name stays as it is."""
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)",
                  lambda m: "$" if m.group(0) == "$$" else env.get(m.group(1), m.group(0)), text)


def container_env(c, a):
    env = {}
    for e in c.get("env", []):
        if "value" in e:
            env[e["name"]] = expand(str(e["value"]), env)
        elif "fieldRef" in (e.get("valueFrom") or {}):
            v = field(e["valueFrom"]["fieldRef"]["fieldPath"], a)
            if v is None:
                die(f"env {e['name']}: fieldRef {e['valueFrom']['fieldRef']['fieldPath']} not supported")
            env[e["name"]] = v
        else:
            die(f"env {e['name']}: only value and fieldRef are supported")
    for s in a["set_env"]:
        ctr, _, kv = s.partition(":")
        if ctr == c["name"]:
            k, _, v = kv.partition("=")
            env[k] = v
    return env


def resource_flags(c, a):
    lim = (c.get("resources") or {}).get("limits") or {}
    flags = []
    if "memory" in lim:
        flags += ["--memory", str(lim["memory"]).replace("Gi", "g").replace("Mi", "m")]
    if "cpu" in lim:
        cpu = str(lim["cpu"])
        flags += ["--cpus", str(int(cpu[:-1]) / 1000) if cpu.endswith("m") else cpu]
    for res in lim:
        if "/" in res:  # an extended resource: the device plugin's
            if res not in a["device_plugin"]:
                die(f"container {c['name']}: resource {res}: no device plugin given (--device-plugin)")
            for d in a["device_plugin"][res]:
                flags += ["--device", d]
    return flags


def downward_volume(v, a, d, fsg):
    for it in v["downwardAPI"]["items"]:
        fp = it["fieldRef"]["fieldPath"]
        val = a["network_status"] if "network-status" in fp else field(fp, a)
        if val is None:
            die(f"downwardAPI {fp}: not supported")
        with open(os.path.join(d, it["path"]), "w") as f:
            f.write(val)


def secret_volume(v, a, d, fsg):
    """The Secret's items (--secret NAME=DIR) with defaultMode (0644 if
    unset), group fsGroup and group-readable then, as the kubelet does."""
    sec = v["secret"]
    name = sec["secretName"]
    if name not in a["secret"]:
        die(f"secret volume {v['name']}: Secret {name} does not exist (--secret {name}=DIR); "
            "a kubelet would leave the pod in ContainerCreating", 3)
    mode = sec.get("defaultMode", 0o644)
    for item in sorted(os.listdir(a["secret"][name])):
        dst = os.path.join(d, item)
        with open(os.path.join(a["secret"][name], item), "rb") as f, open(dst, "wb") as g:
            g.write(f.read())
        if fsg is not None:
            os.chown(dst, 0, int(fsg))
            mode |= 0o440
        os.chmod(dst, mode)


def empty_volume(v, a, d, fsg):
    os.chmod(d, 0o777)  # the kubelet's emptyDir: anyone in the pod writes


VOLUMES = {"downwardAPI": downward_volume, "secret": secret_volume, "emptyDir": empty_volume}


def volume_flags(c, tmpl, a, vdir):
    vols = {v["name"]: v for v in tmpl["spec"].get("volumes", [])}
    fsg = (tmpl["spec"].get("securityContext") or {}).get("fsGroup")
    flags = []
    for m in c.get("volumeMounts", []):
        v = vols.get(m["name"])
        kind = next((k for k in VOLUMES if k in (v or {})), None)
        if kind is None:
            die(f"volumeMount {m['name']}: only {', '.join(VOLUMES)} volumes are supported")
        d = os.path.join(vdir, m["name"])
        os.makedirs(d, exist_ok=True)
        VOLUMES[kind](v, a, d, fsg)
        flags += ["-v", f"{d}:{m['mountPath']}:ro" if m.get("readOnly") else f"{d}:{m['mountPath']}"]
    return flags


def run_container(c, tmpl, a, out, init):
    image = image_of(c["image"], a["image"])
    name = f"{a['pod']}-{c['name']}"
    tl = os.path.join(out, f"{c['name']}.termination-log")
    open(tl, "w").close()
    os.chmod(tl, 0o666)  # the kubelet's file: writable by any container user
    argv = ["podman", *a["podman"], "run", "--name", name, "--rm=false",
            "--network", "host", "--hostname", a["pod"], "--pull", "never"]
    cfg = image_config(image, a["podman"])
    sec, wrap = security(tmpl["spec"].get("securityContext"), c, cfg)
    argv += sec
    for u in DEFAULT_ULIMITS:
        argv += ["--ulimit", u]
    env = container_env(c, a)
    argv += resource_flags(c, a) + [f for k, v in env.items() for f in ("-e", f"{k}={v}")]
    argv += volume_flags(c, tmpl, a, a["volumes"] or os.path.join(out, "volumes"))
    argv += ["-v", f"{tl}:{c.get('terminationMessagePath', '/dev/termination-log')}"]
    for h in a["add_host"]:
        argv += ["--add-host", h]
    # command replaces the image's Entrypoint, args its Cmd (and a command
    # without args drops the Cmd), as Kubernetes does
    entry = [expand(str(x), env) for x in c["command"]] if "command" in c else cfg.get("Entrypoint") or []
    args = c.get("args", cfg.get("Cmd") or [] if "command" not in c else [])
    argv += ["--entrypoint", json.dumps(wrap + entry)] if wrap or "command" in c else []
    argv += [image] + [expand(str(x), env) for x in args]
    print(f"podman-kubelet: {'init ' if init else ''}container {c['name']}: {' '.join(argv)}", flush=True)
    subprocess.run(["podman", *a["podman"], "rm", "-f", "-i", name], capture_output=True)
    rc = subprocess.run(argv, stderr=subprocess.STDOUT).returncode
    insp = subprocess.run(["podman", *a["podman"], "inspect", "--format",
                           "{{.State.ExitCode}}", name], capture_output=True, text=True)
    if insp.returncode == 0 and insp.stdout.strip().isdigit():
        rc = int(insp.stdout.strip())  # the runtime's word, not podman run's
    msg = open(tl, "rb").read()
    if not msg and rc and c.get("terminationMessagePolicy") == "FallbackToLogsOnError":
        logs = subprocess.run(["podman", *a["podman"], "logs", "--tail", "80", name],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT).stdout
        msg = logs[-2048:]
    with open(tl, "wb") as f:
        f.write(msg[:4096])  # the kubelet's cap
    with open(os.path.join(out, f"{c['name']}.exit"), "w") as f:
        f.write(f"{rc}\n")
    print(f"podman-kubelet: container {c['name']} exited {rc}", flush=True)
    return rc


def main():
    a = parse_args(sys.argv[1:])
    with open(a["file"]) as f:
        docs = list(yaml.safe_load_all(f))
    tmpl = find_template(docs, a["what"])
    a["pod"] = a["pod"] or a["what"].split("/")[1]
    out = a["out"] or os.getcwd()
    os.makedirs(out, exist_ok=True)
    for c in tmpl["spec"].get("initContainers", []):
        rc = run_container(c, tmpl, a, out, True)
        if rc:
            sys.exit(rc)
    ctrs = tmpl["spec"]["containers"]
    if len(ctrs) != 1:
        die("only pods of one container are supported")
    sys.exit(run_container(ctrs[0], tmpl, a, out, False))


if __name__ == "__main__":
    main()
