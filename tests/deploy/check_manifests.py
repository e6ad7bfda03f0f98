#!/usr/bin/env python3
"""Checks the Kubernetes manifests of deploy/agones (no cluster needed): they parse as YAML, have the structure
Agones and Kubernetes expect, agree with each other and with the Dockerfile, and the server accepts the arguments
the fleet gives it (stackrace-server ARGS --check-config).

usage: check_manifests.py SOURCE_DIR STACKRACE_SERVER_BINARY
"""
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:
    sys.exit("check_manifests: python3-yaml is missing (deploy/install-deps.sh installs it)")

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


def load(path):
    with open(path, encoding="utf-8") as f:
        docs = [d for d in yaml.safe_load_all(f) if d is not None]
    check(len(docs) == 1, f"{path}: expected one document, found {len(docs)}")
    return docs[0]


def value_after(args, option):
    if option in args:
        i = args.index(option)
        if i + 1 < len(args):
            return args[i + 1]
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, server = sys.argv[1], sys.argv[2]
    agones_dir = os.path.join(root, "deploy", "agones")
    fleet = load(os.path.join(agones_dir, "fleet.yaml"))
    pvc = load(os.path.join(agones_dir, "replays-pvc.yaml"))
    allocation = load(os.path.join(agones_dir, "allocation.yaml"))
    cron = load(os.path.join(agones_dir, "collect-cronjob.yaml"))
    with open(os.path.join(root, "deploy", "Dockerfile"), encoding="utf-8") as f:
        dockerfile = f.read()
    with open(os.path.join(root, "deploy", "README.md"), encoding="utf-8") as f:
        readme = f.read()

    # The Fleet and its GameServer template.
    check(fleet.get("apiVersion") == "agones.dev/v1" and fleet.get("kind") == "Fleet", "fleet.yaml: not an agones Fleet")
    fleet_name = fleet["metadata"]["name"]
    check(isinstance(fleet["spec"].get("replicas"), int) and fleet["spec"]["replicas"] >= 1, "fleet: replicas")
    gs = fleet["spec"]["template"]["spec"]
    ports = gs.get("ports", [])
    check(len(ports) == 1, "fleet: one game port")
    port = ports[0]
    check(port.get("portPolicy") == "Dynamic", "fleet: portPolicy Dynamic")
    check(port.get("containerPort") == 7878, "fleet: containerPort 7878 (the server's --port default)")
    check(port.get("protocol", "UDP") == "UDP", "fleet: the game port is UDP")
    health = gs.get("health", {})
    check(health.get("disabled") is False, "fleet: health checking on")
    period = health.get("periodSeconds")
    check(isinstance(period, int) and isinstance(health.get("failureThreshold"), int), "fleet: health period/threshold")
    check(gs.get("sdkServer", {}).get("httpPort", 9358) == 9358, "fleet: sdkServer.httpPort is the server's default")

    pod = gs["template"]["spec"]
    containers = {c["name"]: c for c in pod["containers"]}
    check(gs.get("container") in containers, "fleet: spec.container names a container of the pod")
    c = containers.get(gs.get("container"), next(iter(containers.values())))
    args = c.get("args", [])
    check(all(isinstance(a, str) for a in args), "fleet: every arg is a string (quote numbers)")
    check("--agones" in args, "fleet: the server runs with --agones")
    interval = value_after(args, "--agones-health-interval")
    check(interval is not None and isinstance(period, int) and float(interval) * 2 <= period,
          "fleet: health pings at least twice per health periodSeconds")
    check(value_after(args, "--agones-idle-shutdown") is not None, "fleet: --agones-idle-shutdown is explicit")
    resources = c.get("resources", {})
    for kind in ("requests", "limits"):
        check({"cpu", "memory"} <= set(resources.get(kind, {})), f"fleet: resources.{kind} cpu and memory")

    # Same non-root user as the image.
    user = re.search(r"^USER (\d+):(\d+)$", dockerfile, re.M)
    check(user is not None, "Dockerfile: numeric USER uid:gid")
    security = pod.get("securityContext", {})
    check(security.get("runAsNonRoot") is True, "fleet: runAsNonRoot")
    if user:
        check(str(security.get("runAsUser")) == user.group(1), "fleet: runAsUser is the image's USER")
        check(str(security.get("fsGroup")) == user.group(2), "fleet: fsGroup is the image's group (volume writes)")

    # Metrics: argument, annotation and container port agree.
    metrics_port = value_after(args, "--metrics-port")
    annotations = gs["template"].get("metadata", {}).get("annotations", {})
    check(annotations.get("prometheus.io/port") == metrics_port, "fleet: prometheus.io/port is --metrics-port")
    named = {p.get("name"): p for p in c.get("ports", [])}
    check("metrics" in named and str(named["metrics"].get("containerPort")) == metrics_port,
          "fleet: the metrics container port is --metrics-port")
    check(value_after(args, "--metrics-bind") == "0.0.0.0", "fleet: metrics reachable from Prometheus")

    # Volumes: the replay store lives on the shared claim.
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    mounts = {m["name"]: m["mountPath"] for m in c.get("volumeMounts", [])}
    for name in mounts:
        check(name in volumes, f"fleet: volumeMount {name} has a volume")
    claims = {v["persistentVolumeClaim"]["claimName"] for v in volumes.values() if "persistentVolumeClaim" in v}
    check(claims == {pvc["metadata"]["name"]}, "fleet: uses the claim of replays-pvc.yaml")
    data_dir = value_after(args, "--data-dir") or ""
    check(any(data_dir.startswith(path + "/") for path in mounts.values()), "fleet: --data-dir is on a mounted volume")
    env_names = {e["name"] for e in c.get("env", [])}
    for var in re.findall(r"\$\((\w+)\)", " ".join(args)):
        check(var in env_names, f"fleet: $({var}) is defined in the container's env")

    # The server accepts the arguments (with $(VAR) expanded as Kubernetes would).
    expanded = [re.sub(r"\$\((\w+)\)", "stackrace-abcde-fghij", a) for a in args]
    run = subprocess.run([server, *expanded, "--check-config"], capture_output=True, text=True)
    check(run.returncode == 0, f"fleet: stackrace-server refuses the args: {run.stdout}{run.stderr}")

    # The PVC is shared by every server and the collector.
    check(pvc.get("kind") == "PersistentVolumeClaim", "replays-pvc.yaml: a PersistentVolumeClaim")
    check("ReadWriteMany" in pvc["spec"].get("accessModes", []), "replays-pvc: ReadWriteMany")
    check("storage" in pvc["spec"].get("resources", {}).get("requests", {}), "replays-pvc: a storage request")

    # The allocation picks a server of this fleet.
    check(allocation.get("apiVersion") == "allocation.agones.dev/v1" and allocation.get("kind") == "GameServerAllocation",
          "allocation.yaml: a GameServerAllocation")
    selectors = allocation["spec"].get("selectors", [])
    check(bool(selectors) and selectors[0].get("matchLabels", {}).get("agones.dev/fleet") == fleet_name,
          "allocation: selects the fleet by agones.dev/fleet")

    # The collector: same image, same claim, the script the image installs, the servers' directory.
    check(cron.get("apiVersion") == "batch/v1" and cron.get("kind") == "CronJob", "collect-cronjob.yaml: a CronJob")
    job = cron["spec"]["jobTemplate"]["spec"]["template"]["spec"]
    job_container = job["containers"][0]
    check(job_container.get("image") == c.get("image"), "cronjob: the fleet's image")
    job_claims = {v["persistentVolumeClaim"]["claimName"] for v in job.get("volumes", []) if "persistentVolumeClaim" in v}
    check(job_claims == claims, "cronjob: the fleet's claim")
    command = " ".join(job_container.get("command", []))
    check("stackrace-collect-replays" in command, "cronjob: runs stackrace-collect-replays")
    check("COPY deploy/collect-replays.sh /usr/local/bin/stackrace-collect-replays" in dockerfile,
          "Dockerfile: installs collect-replays.sh as stackrace-collect-replays")
    servers_dir = data_dir.rsplit("/", 1)[0]
    check(servers_dir + "/*/" in command, f"cronjob: collects every {servers_dir}/*/ store")
    check(job_container.get("resources", {}).get("limits"), "cronjob: resource limits")

    # The fleet on PostgreSQL: fleet.yaml's fleet, plus --database and the database's address and account from the
    # Secret of postgresql-secret.yaml, still with its data directory (the spool) on the shared claim.
    pg_fleet = load(os.path.join(agones_dir, "fleet-postgresql.yaml"))
    secret = load(os.path.join(agones_dir, "postgresql-secret.yaml"))
    check(secret.get("kind") == "Secret", "postgresql-secret.yaml: a Secret")
    pg_container = next(x for x in pg_fleet["spec"]["template"]["spec"]["template"]["spec"]["containers"]
                        if x["name"] == c["name"])
    pg_args = pg_container.get("args", [])
    check(value_after(pg_args, "--database") == "postgresql://", "fleet-postgresql: --database postgresql://")
    check([a for a in pg_args if a not in ("--database", "postgresql://")] == args,
          "fleet-postgresql: fleet.yaml's args and --database, nothing else")
    pg_env = {e["name"]: e for e in pg_container.get("env", [])}
    for var in ("PGHOST", "PGPORT", "PGDATABASE", "PGUSER", "PGPASSWORD"):
        ref = pg_env.get(var, {}).get("valueFrom", {}).get("secretKeyRef", {})
        check(ref.get("name") == secret["metadata"]["name"] and ref.get("key") in secret.get("stringData", {}),
              f"fleet-postgresql: {var} comes from a key of the Secret")
    same_container = dict(pg_container, args=args, env=[e for e in pg_container.get("env", []) if e["name"] in env_names])
    check(same_container == c, "fleet-postgresql: the container is fleet.yaml's but for --database and the PG* env")
    check(pg_fleet["metadata"] == fleet["metadata"] and pg_fleet["spec"]["template"]["spec"]["ports"] == ports,
          "fleet-postgresql: fleet.yaml's name and ports (allocation.yaml serves both)")
    pg_expanded = [re.sub(r"\$\((\w+)\)", "stackrace-abcde-fghij", a) for a in pg_args]
    run = subprocess.run([server, *pg_expanded, "--check-config"], capture_output=True, text=True)
    check(run.returncode == 0, f"fleet-postgresql: stackrace-server refuses the args: {run.stdout}{run.stderr}")

    # The README walks through each file.
    for name in ("fleet.yaml", "replays-pvc.yaml", "allocation.yaml", "collect-cronjob.yaml", "fleet-postgresql.yaml",
                 "postgresql-secret.yaml"):
        check(f"deploy/agones/{name}" in readme, f"deploy/README.md: mentions deploy/agones/{name}")

    if failures:
        for f in failures:
            print("FAIL:", f)
        sys.exit(1)
    print("deploy/agones manifests: all checks passed")


if __name__ == "__main__":
    main()
