# SPDX-License-Identifier: BSD-2-Clause
"""scripts/afile.py - the scripts' one file writer, common/lib/afile.c's
rule in Python: a reader sees the old file or the new one, and a file
planted in the folder (a symlink named like our temporary file) is never
written through.

write(path, data): data (str, UTF-8, or bytes) into path:
  - a regular file, or none yet: a temporary file made in path's own
    folder with O_EXCL (tempfile.mkstemp: an unpredictable name, never a
    symlink followed), written, fsync'd, made 0644 and renamed over path
    (rename replaces a regular file only: whatever is at path is checked
    with lstat first);
  - a device, a FIFO, or a symlink (to anything but a folder): written in
    place, as the user pointed it there (/dev/stdout, a pipe);
  - a folder, or anything else: refused (AfileError, naming path).
Imported by the scripts beside it and below it (sys.path)."""
import os
import stat
import tempfile


class AfileError(Exception):
    pass


def _in_place(path, data):
    fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def _atomic(path, data):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
            os.fchmod(f.fileno(), 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write(path, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return _atomic(path, data)
    mode = st.st_mode
    if stat.S_ISLNK(mode):
        try:
            mode = os.stat(path).st_mode
        except FileNotFoundError:
            raise AfileError(f"{path}: a symlink to nothing; remove it or point it at a file")
        if stat.S_ISDIR(mode):
            raise AfileError(f"{path}: a folder (through a symlink); give a file's name")
        return _in_place(path, data)
    if stat.S_ISREG(mode):
        return _atomic(path, data)
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode):
        return _in_place(path, data)
    if stat.S_ISDIR(mode):
        raise AfileError(f"{path}: a folder; give a file's name, or remove the folder")
    raise AfileError(f"{path}: neither a file, a device nor a FIFO; remove it")
