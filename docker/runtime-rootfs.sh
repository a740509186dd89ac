#!/bin/sh
# Assemble /rootfs, the action image's whole file system: the Python interpreter, the shared
# libraries that it and every extension module load (found with ldd), the standard library
# without the parts a gate never imports, the virtualenv with the runtime dependencies, and
# /app. No shell, no package manager, no compiler: the final stage is FROM scratch.
set -eu
R=/rootfs
PY=python3.11
mkdir -p "$R/usr/bin" "$R/usr/lib" "$R/etc" "$R/tmp" "$R/root"
chmod 1777 "$R/tmp"
# Debian's merged /usr: /lib, /lib64, /bin … are symlinks into /usr; keep them so.
for top in bin sbin lib lib32 lib64 libx32; do
  if [ -L "/$top" ]; then ln -s "$(readlink "/$top")" "$R/$top"; fi
done

# Copy a path into $R under its canonical directory; for a symlink, also what it points to.
copy_path() {
  p="$1"
  while :; do
    dir="$(readlink -f "$(dirname "$p")")"
    c="$dir/$(basename "$p")"
    cp -a --parents "$c" "$R"
    [ -L "$c" ] || break
    target="$(readlink "$c")"
    case "$target" in
      /*) p="$target" ;;
      *) p="$dir/$target" ;;
    esac
  done
}

copy_path "/usr/bin/$PY"
copy_path /usr/bin/python3
cp -a --parents "/usr/lib/$PY" /opt/venv /app "$R"

# Parts of the standard library nothing here imports (installers, GUIs, 2to3, distutils).
for unused in ensurepip idlelib tkinter turtledemo lib2to3 distutils pydoc_data \
  turtle.py __phello__ __hello__.py; do
  rm -rf "${R:?}/usr/lib/$PY/$unused"
done
# Test suites and static libraries of the dependencies.
find "$R/opt/venv" -depth -type d \( -name tests -o -name testing \) -path '*/numpy/*' \
  -exec rm -rf {} +
rm -rf "$R/opt/venv/lib/$PY/site-packages/numpy/f2py" \
  "$R/opt/venv/lib/$PY/site-packages/numpy/_core/include" \
  "$R/opt/venv/lib/$PY/site-packages/numpy/_core/lib" \
  "$R/opt/venv/lib/$PY/site-packages/numpy/random/lib"
find "$R/opt/venv" -name '*.pyi' -delete

# Every shared library the interpreter and the extension modules need.
{
  echo "/usr/bin/$PY"
  find "$R/usr/lib/$PY/lib-dynload" "$R/opt/venv" -name '*.so*' -type f
} | while read -r binary; do
  ldd "$binary" 2>/dev/null | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\//) print $i }'
done | sort -u | while read -r library; do
  case "$library" in
    "$R"/*) ;;  # inside the venv already (numpy.libs)
    *) copy_path "$library" ;;
  esac
done

# root's account (some libraries look it up) and nothing else from /etc.
printf 'root:x:0:0:root:/root:/usr/sbin/nologin\n' >"$R/etc/passwd"
printf 'root:x:0:\n' >"$R/etc/group"
