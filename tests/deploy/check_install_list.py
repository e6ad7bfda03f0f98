#!/usr/bin/env python3
"""Checks that deploy/install-deps.sh installs everything a configured (and built) tree found on this machine.

A package left over on a development machine hides a missing install step: the build finds the file, CI passes, and a
fresh Debian 12 fails. So every file the build used from the system must belong to a Debian package that
install-deps.sh installs, or that one of those packages depends on (Depends and Pre-Depends, recursively, as
`apt-get install --no-install-recommends` would pull them in), or that every Debian 12 minbase root already has
(Essential: yes and Priority: required, with their dependencies).

The files checked:
  - every program and CMake package directory in CMakeCache.txt (compilers, glad, xvfb-run, glfw3_DIR, ...);
  - every pkg-config file of a pkg_check_modules() call;
  - every system library on a link line of build.ninja (full paths and -l names);
  - every system header a compiler read (`ninja -t deps`; empty before the first build).
Library files CMake's find modules found but no target links (FindX11 looks for a dozen optional libraries) are not
checked: they would be harmless on a fresh machine.

usage: check_install_list.py BUILD_DIR SOURCE_DIR [--without PKG ...] [--verbose]
  --without PKG   check as if PKG were not in install-deps.sh (the test that shows the check names a missing package)
Exit status: 0 when every file is accounted for, 1 when not (each missing package is named with the files it gave),
2 on a usage error.
"""
import os
import re
import shlex
import subprocess
import sys


def fail_usage(message):
    print(f"check_install_list: {message}", file=sys.stderr)
    print(__doc__.split("usage: ")[1].split("\n")[0], file=sys.stderr)
    sys.exit(2)


def canonical(path):
    """Debian 12 merged /bin, /sbin and /lib into /usr; dpkg lists some files under either name."""
    path = os.path.normpath(path)
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if path == top or path.startswith(top + "/"):
            return "/usr" + path
    return path


def parse_status(path="/var/lib/dpkg/status"):
    """Installed packages: name -> fields (Depends, Pre-Depends, Provides, Essential, Priority)."""
    packages = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for stanza in f.read().split("\n\n"):
            fields, key = {}, None
            for line in stanza.splitlines():
                if line.startswith((" ", "\t")) and key:
                    fields[key] += " " + line.strip()
                elif ":" in line:
                    key, _, value = line.partition(":")
                    fields[key] = value.strip()
            name = fields.get("Package")
            if name and fields.get("Status", "").endswith(" installed"):
                packages[name] = fields
    return packages


def alternatives(field):
    """'a (>= 1) | b, c:any' -> [['a', 'b'], ['c']]"""
    out = []
    for group in filter(None, (g.strip() for g in field.split(","))):
        names = [re.split(r"[\s(\[:]", alt.strip(), maxsplit=1)[0] for alt in group.split("|")]
        out.append([n for n in names if n])
    return out


def closure(seeds, packages):
    """The installed packages that `apt-get install --no-install-recommends SEEDS` pulls in on a fresh machine.

    As apt does: a dependency with alternatives ("a | b") is met by any alternative already chosen (the seeds first),
    else by its first alternative (a virtual one by its installed providers). An alternative that is only installed
    here, from earlier work, does not count: that is exactly what hides a missing install step.
    """
    providers = {}
    for name, fields in packages.items():
        for group in alternatives(fields.get("Provides", "")):
            for virtual in group:
                providers.setdefault(virtual, []).append(name)

    def chosen(alt):
        return [alt] if alt in packages else sorted(providers.get(alt, []))

    selected = {s for s in seeds if s in packages}
    todo = sorted(selected)
    done = set()
    while todo:
        name = todo.pop(0)
        if name in done:
            continue
        done.add(name)
        fields = packages[name]
        for group in alternatives(fields.get("Pre-Depends", "")) + alternatives(fields.get("Depends", "")):
            if any(p in selected for alt in group for p in chosen(alt)):
                continue
            for p in chosen(group[0]):
                selected.add(p)
                todo.append(p)
    return selected


def owners(info_dir="/var/lib/dpkg/info"):
    """Every path dpkg knows -> the packages that ship it."""
    owned = {}
    for entry in os.listdir(info_dir):
        if not entry.endswith(".list"):
            continue
        package = entry[: -len(".list")].split(":")[0]
        with open(os.path.join(info_dir, entry), encoding="utf-8", errors="replace") as f:
            for line in f:
                owned.setdefault(canonical(line.rstrip("\n")), set()).add(package)
    return owned


def install_list(source_dir):
    script = os.path.join(source_dir, "deploy", "install-deps.sh")
    result = subprocess.run(["bash", script, "--list"], capture_output=True, text=True, check=False)
    if result.returncode != 0 or not result.stdout.split():
        fail_usage(f"{script} --list failed: {result.stderr.strip()}")
    return result.stdout.split()


def cache_files(build_dir):
    """Programs and package directories from CMakeCache.txt, plus the libraries it found (checked if linked)."""
    programs, libraries, modules = [], set(), []
    with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^([^#/][^:=]*):(FILEPATH|PATH|INTERNAL|STRING)=(.*)$", line.rstrip("\n"))
            if not m:
                continue
            key, kind, value = m.groups()
            if key.startswith("__pkg_config_arguments_"):
                # Our own pkg_check_modules() calls are REQUIRED; CMake's find modules ask QUIET for hints only.
                words = value.split(";")
                if "REQUIRED" in words:
                    modules += [w for w in words if w and not w.isupper()]
                continue
            # A developer's own compiler launcher (ccache) is not something the project needs.
            if key.endswith("_COMPILER_LAUNCHER") or kind in ("INTERNAL", "STRING"):
                continue
            if not value.startswith("/") or not os.path.exists(value):
                continue
            if value.startswith((os.path.abspath(build_dir), "/proc")):
                continue
            if kind == "PATH" and key.endswith("_DIR") and not key.endswith("INCLUDE_DIR"):
                programs.append((value, f"CMake package {key}"))
            elif kind == "FILEPATH" and re.search(r"\.(so|a)(\.[0-9.]+)?$", value):
                libraries.add(os.path.realpath(value))
            elif kind == "FILEPATH" and os.access(value, os.X_OK):
                programs.append((value, f"program {key}"))
    for module in modules:
        pc = subprocess.run(["pkg-config", "--path", module], capture_output=True, text=True, check=False)
        if pc.returncode == 0 and pc.stdout.strip():
            programs.append((pc.stdout.strip(), f"pkg-config module {module}"))
    return programs, libraries


LIB_DIRS = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/i386-linux-gnu", "/usr/lib/aarch64-linux-gnu",
            "/usr/lib/s390x-linux-gnu", "/usr/lib", "/usr/local/lib"]


def linked_libraries(build_dir, source_dir):
    """System libraries on the link lines of build.ninja."""
    found = []
    ninja = os.path.join(build_dir, "build.ninja")
    if not os.path.exists(ninja):
        return found
    tops = (os.path.abspath(build_dir), os.path.abspath(source_dir))
    with open(ninja, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("  LINK_LIBRARIES = "):
                continue
            for word in shlex.split(line.split("=", 1)[1]):
                if word.startswith("-l") and len(word) > 2:
                    name = word[2:]
                    for d in LIB_DIRS:
                        hit = next((os.path.join(d, f"lib{name}{ext}") for ext in (".so", ".a")
                                    if os.path.exists(os.path.join(d, f"lib{name}{ext}"))), None)
                        if hit:
                            found.append((hit, f"linked as {word}"))
                            break
                elif word.startswith("/") and not word.startswith(tops) and os.path.exists(word):
                    found.append((word, "linked"))
    return found


def compiled_headers(build_dir, source_dir, ninja):
    """System headers a compiler read, from ninja's dependency log."""
    result = subprocess.run([ninja, "-C", build_dir, "-t", "deps"], capture_output=True, text=True, check=False)
    if result.returncode != 0:
        return []
    tops = (os.path.abspath(build_dir), os.path.abspath(source_dir))
    headers = set()
    for line in result.stdout.splitlines():
        if line.startswith("    /"):
            path = line.strip()
            if not path.startswith(tops):
                headers.add(path)
    return [(h, "included") for h in sorted(headers)]


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    verbose = "--verbose" in argv
    without = [argv[i + 1] for i, a in enumerate(argv) if a == "--without" and i + 1 < len(argv)]
    args = [a for a in args if a not in without]
    if len(args) != 2:
        fail_usage("needs BUILD_DIR and SOURCE_DIR")
    build_dir, source_dir = (os.path.abspath(a) for a in args)
    if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
        fail_usage(f"{build_dir} is not a configured build directory (no CMakeCache.txt)")

    packages = parse_status()
    listed = [p for p in install_list(source_dir) if p not in without]
    not_installed = [p for p in listed if p not in packages]
    base = [n for n, f in packages.items()
            if f.get("Essential") == "yes" or f.get("Priority") == "required" or n == "apt"]
    allowed = closure(listed + base, packages)

    programs, cache_libraries = cache_files(build_dir)
    linked = linked_libraries(build_dir, source_dir)
    linked_real = {os.path.realpath(p) for p, _ in linked}
    unlinked = len([lib for lib in cache_libraries if lib not in linked_real])
    ninja = next((p for p, why in programs if why == "program CMAKE_MAKE_PROGRAM"), "ninja")
    headers = compiled_headers(build_dir, source_dir, ninja)
    files = programs + linked + headers

    owned = owners()
    missing, foreign = {}, []
    for path, why in files:
        candidates = [canonical(path), canonical(os.path.realpath(path))]
        owner = next((owned[c] for c in candidates if c in owned), None)
        if owner is None:
            foreign.append((path, why))
        elif not owner & allowed:
            missing.setdefault(" or ".join(sorted(owner)), []).append((path, why))

    print(f"check_install_list: {len(listed)} packages listed in deploy/install-deps.sh"
          f"{' (without ' + ', '.join(without) + ')' if without else ''}, {len(allowed)} with their dependencies and"
          f" Debian's required ones")
    print(f"check_install_list: checked {len(programs)} programs and package files, {len(linked)} linked libraries,"
          f" {len(headers)} system headers ({unlinked} libraries CMake found but nothing links were skipped)")
    if not_installed:
        print(f"check_install_list: listed but not installed here (run deploy/install-deps.sh): "
              f"{' '.join(not_installed)}")
    # A file no package ships (a tool under /usr/local, a pyenv shim) is not what a fresh machine would find; say so,
    # but only a Debian package outside the list is an error: that is the missing install step.
    for path, why in foreign:
        if verbose or not path.startswith("/usr/local"):
            print(f"check_install_list: note: {path} ({why}) belongs to no Debian package")
    for package, hits in sorted(missing.items()):
        print(f"check_install_list: MISSING package {package}: deploy/install-deps.sh does not install it, yet the"
              f" build uses {len(hits)} of its files, e.g.:")
        for path, why in hits[:5]:
            print(f"    {path} ({why})")
    if missing:
        print(f"check_install_list: FAIL: add {' '.join(sorted(missing))} to deploy/install-deps.sh")
        return 1
    print("check_install_list: every file the build uses comes from a package deploy/install-deps.sh installs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
