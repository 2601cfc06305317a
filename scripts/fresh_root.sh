# A fresh Debian 12 root to run the README's install commands in, for scripts/check_python_install.sh
# and scripts/check_deb_install.sh (sourced, not run). As root:
#
#   source scripts/fresh_root.sh
#   fresh_root_make NAME        # debootstrap bookworm (minbase) into $root, mounts, apt answered yes
#   in_root "COMMAND"           # as root inside it, in /root/alignscope (created), a clean environment
#   phase "WHAT"                # a progress line with the seconds since fresh_root_make
#
# The mirror is the one apt uses here (MIRROR=URL overrides it). The root is removed on exit, or
# kept with keep=1 (its path printed). Callers define fail().

# The Debian mirror of apt's own sources (deb822 URIs: or one-line deb), unless MIRROR is given.
fresh_root_mirror() {
  local mirror=${MIRROR:-$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    awk '/^URIs:/ {print $2} /^deb / {print ($2 ~ /^\[/ ? $3 : $2)}' | grep -v -- '-security' | grep -m1 '/debian/\?$' || true)}
  [[ -n $mirror ]] || fail "no Debian mirror found in /etc/apt/sources.list*: set MIRROR=URL"
  echo "$mirror"
}

fresh_root_cleanup() {
  for m in dev/pts dev proc sys; do mountpoint -q "$root/$m" && umount -l "$root/$m"; done
  if ((${keep:-0})); then echo "root kept: $root"; else rm -rf --one-file-system "$root"; fi
}

phase() { echo "== $* ($((SECONDS - fresh_root_start)) s)"; }

fresh_root_make() {
  [[ $(id -u) -eq 0 ]] || fail "run as root (debootstrap and chroot need it)"
  command -v debootstrap >/dev/null || fail "debootstrap is missing: apt-get install debootstrap"
  local mirror
  mirror=$(fresh_root_mirror)
  root=$(mktemp -d "/var/tmp/alignscope-$1.XXXXXX")
  trap fresh_root_cleanup EXIT
  fresh_root_start=$SECONDS
  phase "debootstrap bookworm (minbase) from $mirror"
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
    { tail -20 "$root.debootstrap.log"; fail "debootstrap failed (log: $root.debootstrap.log)"; }
  rm -f "$root.debootstrap.log"
  echo "deb $mirror bookworm main" >"$root/etc/apt/sources.list"
  # A person answers apt's question; here it is answered for them.
  echo 'APT::Get::Assume-Yes "true";' >"$root/etc/apt/apt.conf.d/90assume-yes"
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  mount -t proc proc "$root/proc"
  mount -t sysfs sys "$root/sys"
  mount --bind /dev "$root/dev"
  mount --bind /dev/pts "$root/dev/pts"
  mkdir -p "$root/root/alignscope"
}

in_root() {
  chroot "$root" env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive QT_QPA_PLATFORM=offscreen bash -euo pipefail -c "cd /root/alignscope && $1"
}
