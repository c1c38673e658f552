# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Output folders: what roundsmith owns in them, and how it writes them without a half state.

Ownership. Every folder roundsmith writes holds `roundsmith.manifest`: each file it wrote, with
the SHA-256 of the bytes it wrote. A later run replaces or removes only files that manifest
lists and that still hold those bytes. Everything else in the folder is the user's and is never
touched: files added beside the generated ones survive every regeneration. Refused, with one
line naming the files and nothing touched:
- a folder that is not empty and has no manifest (roundsmith cannot tell what is its own);
- a file the new output needs whose name the manifest does not list (it is the user's);
- a listed file the user changed (unless --force: then it is overwritten, or, when the new
  output no longer has it, kept and dropped from the manifest; an unlisted file never is).

Atomicity. A new folder is written as a hidden sibling and renamed into place, so it appears
whole or not at all. An existing folder keeps its identity (inode, mode, owner, the user's
files): the new files are staged in a hidden folder inside it, then a commit marker is written,
then each file is renamed over its old version and the manifest last. A run killed before the
marker leaves the folder as it was (the next run discards the staging); one killed after it is
completed by the next run before anything else (roll forward), so no run ever starts from a
half-written folder. New files and folders follow the umask; a replaced file keeps its mode.

Subfolders. A name may be `<subfolder>/<file>`, one level deep (a bundle's pq-crystals/, files a
client copies over its own): the same rules hold file by file, and a subfolder roundsmith
emptied is removed.
"""

import hashlib
import os
import shutil
import signal
import tempfile

from .. import VERSION
from ..errors import UsageError

MANIFEST = "roundsmith.manifest"
STAGING = ".roundsmith-staging-"   # inside an existing output folder
COMMIT = ".commit"                  # inside a staging folder: the point of no return
MANIFEST_INTRO = (
    "# SPDX-License-Identifier: CC0-1.0\n"
    "# roundsmith.manifest: the files roundsmith generated in this folder, with the SHA-256 of\n"
    "# the bytes it wrote. roundsmith replaces or removes only the files listed here that still\n"
    "# hold these bytes; any other file in this folder is yours and is never touched.\n")
# Names a refusal lists before it says how many more there are: the message stays one line.
SHOWN = 6

# Tests only: makes write_tree fail after N staged files, at "commit" (the marker written,
# nothing renamed yet) or at "commit:N" (after N renames), as a crash ("raise:...") or as the
# process being killed ("kill:...", SIGKILL: no cleanup code runs), to prove that a folder
# survives both.
FAULT_ENV = "ROUNDSMITH_FAULT"


def _inject_fault(point):
    spec = os.environ.get(FAULT_ENV)
    if not spec:
        return
    kind, _, at = spec.partition(":")
    if at != str(point):
        return
    if kind == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    raise RuntimeError(f"{FAULT_ENV}={spec}: fault injected at {point}")


def digest(data):
    return hashlib.sha256(data).hexdigest()


def valid_name(name):
    """A file name roundsmith writes and reads in a manifest: `file` or `subfolder/file`."""
    parts = name.split("/")
    return (len(parts) <= 2 and parts[0] != MANIFEST
            and all(p and p not in (".", "..") and not p.startswith(STAGING) for p in parts))


def manifest_text(files, command):
    """The manifest of `files` (name -> text): deterministic, so it is part of the output."""
    lines = [MANIFEST_INTRO, f"# roundsmith {VERSION}: {command}\n"]
    lines += [f"{digest(files[name].encode())}  {name}\n" for name in sorted(files)]
    return "".join(lines)


def with_manifest(files, command):
    if MANIFEST in files:
        raise ValueError(f"{MANIFEST} is the generator's own name")
    return dict(files, **{MANIFEST: manifest_text(files, command)})


def read_manifest(folder):
    """{name: sha256} of a folder's manifest, or None when it has none."""
    path = os.path.join(folder, MANIFEST)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    owned = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        hexdigest, sep, name = line.partition("  ")
        if (not sep or len(hexdigest) != 64 or not valid_name(name)
                or any(c not in "0123456789abcdef" for c in hexdigest)):
            raise UsageError(f"{path}: line {number} is not '<sha256>  <file name>'; "
                             "roundsmith will not write a folder whose manifest it cannot read")
        owned[name] = hexdigest
    return owned


def file_digest(path):
    """SHA-256 of a regular file's bytes; None for anything else (a link, a folder)."""
    if os.path.islink(path) or not os.path.isfile(path):
        return None
    with open(path, "rb") as f:
        return digest(f.read())


def _names(items):
    items = sorted(items)
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Plan:
    """What one run will do to an existing folder: write, remove, disown; or why it must not."""

    def __init__(self, folder, files, manifest, force, shown=None):
        self.folder = folder
        shown = shown or folder   # as the user spelled it, for messages
        owned = read_manifest(folder)
        present = set(_occupants(folder, {n.split("/")[0] for n in files if "/" in n}))
        present -= {MANIFEST}
        if owned is None:
            if present:
                raise UsageError(
                    f"will not write into {shown}: it holds files roundsmith did not write "
                    f"({_names(present)}) and no {MANIFEST}; pass an empty or new folder")
            owned = {}
        self.write, self.remove, self.disown, changed, foreign = [], {}, [], [], []
        for name, data in files.items():
            path = os.path.join(folder, name)
            sub = os.path.join(folder, name.split("/")[0])
            if "/" in name and (os.path.islink(sub) or (os.path.lexists(sub)
                                                         and not os.path.isdir(sub))):
                foreign.append(name)    # never written through a link, nor over a file
                continue
            if not os.path.lexists(path):
                self.write.append(name)
                continue
            have = file_digest(path)
            if have == digest(data):
                continue    # already these bytes (even unlisted: adopting them destroys nothing)
            if name not in owned:
                foreign.append(name)
            elif have != owned[name]:
                changed.append(name)
                self.write.append(name)
            else:
                self.write.append(name)
        for name in owned.keys() - files.keys():
            path = os.path.join(folder, name)
            if not os.path.lexists(path):
                continue
            have = file_digest(path)
            if have == owned[name]:
                self.remove[name] = have
            else:
                changed.append(name)
                self.disown.append(name)
        if foreign:
            raise UsageError(f"will not overwrite {_names(os.path.join(shown, n) for n in foreign)}"
                             f": roundsmith did not write it (not in {MANIFEST}); move it away "
                             "or pass another --out")
        if changed and not force:
            raise UsageError(f"will not replace {_names(os.path.join(shown, n) for n in changed)}"
                             ": changed since roundsmith wrote it; move your change away, or "
                             "pass --force to overwrite it")
        try:
            with open(os.path.join(folder, MANIFEST), "rb") as f:
                self.manifest_changes = f.read() != manifest
        except FileNotFoundError:
            self.manifest_changes = True

    @property
    def empty(self):
        return not (self.write or self.remove or self.disown or self.manifest_changes)


def _roll_forward(staging, folder):
    """Finish a commit whose marker was written: rename what is still staged, remove what
    the marker lists (only if it still holds the bytes it held), the manifest last."""
    with open(os.path.join(staging, COMMIT), encoding="utf-8") as f:
        removals = [line.split("  ", 1) for line in f.read().splitlines() if line]
    staged = sorted(_staged_names(staging))
    for count, name in enumerate(staged):
        _inject_fault(f"commit:{count}")
        if "/" in name:
            os.makedirs(os.path.join(folder, os.path.dirname(name)), exist_ok=True)
        os.replace(os.path.join(staging, name), os.path.join(folder, name))
    for hexdigest, name in removals:
        path = os.path.join(folder, name)
        if file_digest(path) == hexdigest:
            os.remove(path)
            if "/" in name:
                try:
                    os.rmdir(os.path.dirname(path))     # only if nothing else is in it
                except OSError:
                    pass
    if os.path.exists(os.path.join(staging, MANIFEST)):
        os.replace(os.path.join(staging, MANIFEST), os.path.join(folder, MANIFEST))
    shutil.rmtree(staging)


def _staged_names(staging):
    """The files a staging folder holds, `subfolder/file` for those of a subfolder."""
    out = []
    for n in os.listdir(staging):
        if n in (COMMIT, MANIFEST):
            continue
        if os.path.isdir(os.path.join(staging, n)):
            out += [f"{n}/{f}" for f in os.listdir(os.path.join(staging, n))]
        else:
            out.append(n)
    return out


def _occupants(folder, subfolders=()):
    """What a folder holds that could be someone's: its entries, less staging folders and the
    output's own `subfolders` while empty (ninja makes an output's folder before the command
    runs)."""
    out = []
    for n in os.listdir(folder):
        path = os.path.join(folder, n)
        if n.startswith(STAGING) or (n in subfolders and os.path.isdir(path)
                                     and not os.path.islink(path) and not os.listdir(path)):
            continue
        out.append(n)
    return out


def listing(folder):
    """Every file of a folder, one subfolder level deep (`subfolder/file`), hidden staging
    folders left out."""
    out = []
    for n in sorted(os.listdir(folder)):
        path = os.path.join(folder, n)
        if n.startswith(STAGING):
            continue
        if os.path.isdir(path) and not os.path.islink(path):
            out += [f"{n}/{f}" for f in sorted(os.listdir(path))]
        else:
            out.append(n)
    return out


def _open_new(path):
    """A file to write under a fresh folder, its subfolder made first."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    return open(path, "wb")


def recover(folder):
    """Settle what an interrupted earlier run left: a staging folder inside `folder` is
    discarded (no marker: it never began to change anything) or completed (marker written);
    a hidden sibling `.<name>.tmp-*` (a new folder that was never renamed into place) goes."""
    parent, base = os.path.split(folder)
    try:
        siblings = os.listdir(parent)
    except OSError:
        siblings = []
    for name in siblings:
        if name.startswith(f".{base}.tmp-"):
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)
    if not os.path.isdir(folder):
        return
    try:
        inside = sorted(os.listdir(folder))
    except OSError:
        return
    for name in inside:
        staging = os.path.join(folder, name)
        if not (name.startswith(STAGING) and os.path.isdir(staging)
                and not os.path.islink(staging)):
            continue
        if os.path.exists(os.path.join(staging, COMMIT)):
            _roll_forward(staging, folder)
        else:
            shutil.rmtree(staging, ignore_errors=True)


def _write_new(folder, files):
    """A folder that does not exist yet: written whole as a hidden sibling, then renamed."""
    parent = os.path.dirname(folder)
    tmp = tempfile.mkdtemp(prefix="." + os.path.basename(folder) + ".tmp-", dir=parent)
    try:
        os.chmod(tmp, 0o777 & ~_umask())   # mkdtemp makes it 0700; a new folder follows the umask
        for count, name in enumerate(sorted(files)):
            _inject_fault(count)
            with _open_new(os.path.join(tmp, name)) as f:
                f.write(files[name])
        _inject_fault("commit")
        os.rename(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return sorted(files)


def _write_existing(plan, files, manifest):
    folder = plan.folder
    staging = tempfile.mkdtemp(prefix=STAGING, dir=folder)
    try:
        for count, name in enumerate(sorted(plan.write)):
            _inject_fault(count)
            dst = os.path.join(staging, name)
            with _open_new(dst) as f:
                f.write(files[name])
            old = os.path.join(folder, name)
            if os.path.isfile(old) and not os.path.islink(old):
                os.chmod(dst, os.stat(old).st_mode & 0o7777)   # a replaced file keeps its mode
        with open(os.path.join(staging, MANIFEST), "wb") as f:
            f.write(manifest)
        old = os.path.join(folder, MANIFEST)
        if os.path.isfile(old):
            os.chmod(os.path.join(staging, MANIFEST), os.stat(old).st_mode & 0o7777)
        marker = os.path.join(staging, COMMIT)
        with open(marker + ".part", "w", encoding="utf-8") as f:
            f.write("".join(f"{h}  {n}\n" for n, h in sorted(plan.remove.items())))
        os.rename(marker + ".part", marker)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _inject_fault("commit")
    _roll_forward(staging, folder)
    return sorted(plan.write) + sorted(plan.remove)


def precheck(out_dir, subfolders=()):
    """Refuse early, before anything is rendered, what write_tree would refuse for the folder
    alone: a file in its place, or files in it and no manifest (`subfolders`: those the
    output will have)."""
    if os.path.lexists(out_dir) and not os.path.isdir(out_dir):
        raise UsageError(f"{out_dir} exists and is not a folder; pass another --out")
    if os.path.isdir(out_dir):
        try:
            present = _occupants(out_dir, subfolders)
        except OSError as e:
            raise UsageError(f"cannot read {out_dir}: {e.strerror}") from None
        if present and MANIFEST not in present:
            raise UsageError(
                f"will not write into {out_dir}: it holds files roundsmith did not write "
                f"({_names(present)}) and no {MANIFEST}; pass an empty or new folder")


def write_tree(out_dir, files, command, force=False):
    """Write `files` (name -> text) and their manifest into out_dir under the rules above.

    Returns the names written or removed (empty: nothing changed, nothing was touched).
    """
    if not files:
        raise ValueError("nothing to write")
    shown, out_dir = out_dir, os.path.abspath(out_dir)
    parent = os.path.dirname(out_dir)
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot create {parent}: {e.strerror}") from None
    if not os.path.isdir(parent):
        raise UsageError(f"cannot write {out_dir}: {parent} is not a folder")
    if os.path.lexists(out_dir) and not os.path.isdir(out_dir):
        raise UsageError(f"{shown} exists and is not a folder; pass another --out")
    bad = sorted(n for n in files if not valid_name(n))
    if bad:
        raise ValueError(f"not a file name roundsmith writes: {bad[0]}")
    data = {name: text.encode() for name, text in files.items()}
    manifest = manifest_text(files, command).encode()
    try:
        recover(out_dir)
        if not os.path.isdir(out_dir):
            return _write_new(out_dir, dict(data, **{MANIFEST: manifest}))
        plan = Plan(out_dir, data, manifest, force, shown)
        if plan.empty:
            return []
        for name in plan.disown:
            print(f"kept {os.path.join(shown, name)}: you changed it and roundsmith no longer "
                  f"generates it, so it is yours now (dropped from {MANIFEST})")
        return _write_existing(plan, data, manifest)
    except OSError as e:
        raise UsageError(f"cannot write {_named(e.filename, out_dir, shown)}: "
                         f"{e.strerror}") from None


def _named(path, out_dir, shown):
    """The path an OS error is about, as the user knows it: the --out folder they gave for the
    hidden temporary sibling or staging folder roundsmith made (and anything in them)."""
    if not isinstance(path, str):
        return shown
    path = os.path.abspath(path)
    ours = (os.path.join(os.path.dirname(out_dir), "." + os.path.basename(out_dir) + ".tmp-"),
            os.path.join(out_dir, STAGING))
    return shown if path.startswith(ours) else path
