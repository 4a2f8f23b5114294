#!/usr/bin/env bash
# Run deploy/install.sh for real inside a fresh Debian 12 root made with debootstrap,
# then again (it must change nothing), then deploy/uninstall.sh, checking the result of
# each. The root plays a Raspberry Pi OS Desktop image: a user "pi" with sudo, a fake
# display manager and a /boot/firmware/cmdline.txt. No systemd runs inside it, so the
# service is installed and enabled but not started; instead the installed app is started
# headless for a few seconds with the service's environment and Kivy configuration.
#
# Not part of `make test`: it needs root (it re-runs itself with sudo), debootstrap, and
# the network (Debian's mirror, PyPI), and takes several minutes. The Debian base is
# cached in $DEPLOY_CHECK_DIR (default /var/tmp/smallworld-deploy-check) between runs.
#
#   deploy/deploy-check.sh            # the whole check; exit 0 when every check passed
#   deploy/deploy-check.sh --keep     # leave the root there afterwards, to look inside
#   deploy/deploy-check.sh --fresh    # rebuild the cached Debian base first
set -euo pipefail

KEEP=0
FRESH=0
for arg in "$@"; do
    case $arg in
        --keep) KEEP=1 ;;
        --fresh) FRESH=1 ;;
        -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) printf 'deploy-check.sh: unknown option: %s\n' "$arg" >&2; exit 2 ;;
    esac
done

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
WORK=${DEPLOY_CHECK_DIR:-/var/tmp/smallworld-deploy-check}
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
BASE=$WORK/base
ROOT=$WORK/root
LOGS=$WORK/logs
APP_HOME=/home/pi/smallworld-companion
USER_HOME=/home/pi
VENV=$USER_HOME/.local/share/smallworld-companion/venv
CONFIG_DIR=$USER_HOME/.config/smallworld-companion
DATABASE=$USER_HOME/.local/share/smallworld-companion/companion.sqlite3
UNIT=/etc/systemd/system/smallworld-companion.service
CMDLINE=/boot/firmware/cmdline.txt
ORIGINAL_CMDLINE="console=serial0,115200 console=tty1 root=PARTUUID=abcd-02 rootfstype=ext4 fsck.repair=yes rootwait quiet splash"

if [[ $(id -u) -ne 0 ]]; then
    printf 'deploy-check.sh: needs root for debootstrap and chroot; running it with sudo\n'
    exec sudo DEPLOY_CHECK_DIR="$WORK" DEBIAN_MIRROR="$MIRROR" "$0" "$@"
fi

say() { printf '\n== %s\n' "$*"; }
PASSED=()
FAILED=()
# check DESCRIPTION COMMAND...: run the command, record whether it succeeded.
check() {
    local description=$1
    shift
    if "$@" >/dev/null 2>&1; then
        PASSED+=("$description")
        printf '   pass: %s\n' "$description"
    else
        FAILED+=("$description")
        printf '   FAIL: %s\n' "$description"
    fi
}
in_root() { chroot "$ROOT" "$@"; }
as_pi() { chroot "$ROOT" sudo -u pi -H env -C "$APP_HOME" "$@"; }
log_has() { grep -qF -- "$2" "$LOGS/$1"; }
log_lacks() { ! grep -qF -- "$2" "$LOGS/$1"; }
file_in_root() { [[ -f $ROOT$1 ]]; }
gone_from_root() { [[ ! -e $ROOT$1 && ! -L $ROOT$1 ]]; }
same_as_repo() { cmp -s "$ROOT$1" "$REPO/$2"; }
pi_in_groups() {
    local groups
    groups=" $(in_root id -nG pi) "
    for group in gpio dialout video render input audio; do
        [[ $groups == *" $group "* ]] || return 1
    done
}
fingerprint() { # the system files install.sh writes, to compare two runs
    (cd "$ROOT" && sha256sum etc/systemd/system/smallworld-companion.service \
        etc/udev/rules.d/60-smallworld-companion.rules etc/pam.d/smallworld-companion \
        etc/polkit-1/rules.d/50-smallworld-companion.rules boot/firmware/cmdline.txt var/lib/smallworld-companion/install-state \
        "${CONFIG_DIR#/}/companion.toml" "${CONFIG_DIR#/}/kivy/config.ini" 2>&1) || true
    in_root systemctl get-default || true
}

MOUNTS=()
cleanup() {
    local mount
    for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do
        mount=${MOUNTS[i]}
        umount -l "$mount" 2>/dev/null || true
    done
    if ((KEEP)); then
        printf '\nThe root is kept in %s (its logs in %s).\n' "$ROOT" "$LOGS"
    else
        rm -rf "$ROOT"
    fi
}
trap cleanup EXIT
bind() { # SOURCE TARGET-INSIDE-ROOT [mount options...]
    local source=$1 target=$ROOT$2
    shift 2
    mkdir -p "$target"
    mount "$@" "$source" "$target"
    MOUNTS+=("$target")
}

# --- the Debian 12 base, cached -----------------------------------------------------------

if ! command -v debootstrap >/dev/null 2>&1; then
    say "Installing debootstrap"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
fi
mkdir -p "$WORK" "$LOGS"
if ((FRESH)) || [[ ! -f $BASE/.complete ]]; then
    say "Making a Debian 12 (bookworm) root with debootstrap from $MIRROR (once; cached in $BASE)"
    rm -rf "$BASE"
    # What a minimal Raspberry Pi OS Lite has and the installer takes for granted: systemd
    # as init, udev, sudo. Everything else (Python, Mesa, ...) the installer must install.
    debootstrap --variant=minbase --include=systemd,systemd-sysv,udev,sudo \
        bookworm "$BASE" "$MIRROR" >"$LOGS/debootstrap.log" 2>&1 \
        || { tail -n 20 "$LOGS/debootstrap.log" >&2; exit 1; }
    touch "$BASE/.complete"
fi

say "A fresh copy of the base in $ROOT, playing a Raspberry Pi OS Desktop image"
rm -rf "$ROOT"
cp -a "$BASE" "$ROOT"
rm -f "$ROOT/.complete"
bind proc /proc -t proc
bind sysfs /sys -t sysfs
bind /dev /dev --bind
bind /dev/pts /dev/pts --bind
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
cp /etc/hosts "$ROOT/etc/hosts"
cp /etc/hostname "$ROOT/etc/hostname" 2>/dev/null || true
# pip inside the root trusts what this machine trusts (e.g. a TLS-inspecting proxy's CA).
if [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
    mkdir -p "$ROOT/etc/ssl"
    cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/host-ca-certificates.crt"
    printf '[global]\ncert = /etc/ssl/host-ca-certificates.crt\n' >"$ROOT/etc/pip.conf"
fi
# No service starts inside a chroot when a package is installed.
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod +x "$ROOT/usr/sbin/policy-rc.d"
# The user, as Raspberry Pi OS sets it up: sudo without a password.
in_root useradd --create-home --shell /bin/bash pi
printf 'pi ALL=(ALL) NOPASSWD: ALL\n' >"$ROOT/etc/sudoers.d/010_pi-nopasswd"
chmod 440 "$ROOT/etc/sudoers.d/010_pi-nopasswd"
# The Pi's boot partition, and a desktop that starts at boot.
mkdir -p "$ROOT/boot/firmware"
printf '%s\n' "$ORIGINAL_CMDLINE" >"$ROOT$CMDLINE"
cat >"$ROOT/etc/systemd/system/lightdm.service" <<'EOF'
[Unit]
Description=A stand-in for the desktop's display manager
[Service]
ExecStart=/bin/true
[Install]
Alias=display-manager.service
EOF
in_root systemctl enable lightdm.service >/dev/null 2>&1
in_root systemctl set-default graphical.target >/dev/null 2>&1
# The repository, as `git clone` would leave it (no venv, no caches).
mkdir -p "$ROOT$APP_HOME"
tar -C "$REPO" --exclude=./.git --exclude=./.venv --exclude='./*.egg-info' --exclude=./build \
    --exclude=./dist --exclude='*/__pycache__' --exclude=./.mypy_cache --exclude=./.ruff_cache \
    --exclude=./.pytest_cache --exclude=./.hypothesis --exclude=./screenshots -cf - . \
    | tar -C "$ROOT$APP_HOME" -xf -
in_root chown -R pi:pi "$USER_HOME"

# --- the checks ---------------------------------------------------------------------------

say "install.sh as root is refused"
check "install.sh refuses to run as root" \
    bash -c "! chroot '$ROOT' env -C '$APP_HOME' deploy/install.sh --dry-run"

say "First run of deploy/install.sh, as pi (log: $LOGS/install-1.log)"
status=0
as_pi deploy/install.sh >"$LOGS/install-1.log" 2>&1 || status=$?
sed 's/^/   | /' "$LOGS/install-1.log"
check "the first run succeeds" test "$status" -eq 0
if ((status != 0)); then
    printf '\ndeploy-check: the first run of install.sh failed (exit %s); see %s\n' "$status" "$LOGS/install-1.log" >&2
    exit 1
fi
check "the apt packages are installed" in_root dpkg-query -W python3-venv libegl-mesa0 libgbm1 libmtdev1 libpam-systemd udisks2 polkitd
check "pi is in the groups gpio dialout video render input audio" pi_in_groups
check "the app is installed in the venv and runs" as_pi "$VENV/bin/companion" version
check "the companion command is on pi's PATH" test -L "$ROOT$USER_HOME/.local/bin/companion"
check "companion.toml was written" same_as_repo "$CONFIG_DIR/companion.toml" deploy/companion.example.toml
check "the kiosk's Kivy config is the shipped one" same_as_repo "$CONFIG_DIR/kivy/config.ini" deploy/kivy-pi.ini
check "the udev rules are installed" same_as_repo /etc/udev/rules.d/60-smallworld-companion.rules deploy/60-smallworld-companion.rules
check "the PAM file is installed" same_as_repo /etc/pam.d/smallworld-companion deploy/pam-smallworld-companion
check "the unit is installed" file_in_root "$UNIT"
check "the unit runs as pi" grep -qx 'User=pi' "$ROOT$UNIT"
check "systemd-analyze verify accepts the installed unit" in_root systemd-analyze verify --man=no "$UNIT"
check "systemd-analyze security rates the installed unit 4.9 or lower" in_root systemd-analyze security --offline=yes --threshold=49 "$UNIT"
check "the polkit rule is installed for pi alone" grep -qF 'subject.user === "pi"' "$ROOT/etc/polkit-1/rules.d/50-smallworld-companion.rules"
check "the service is enabled (multi-user.target wants it)" test -L "$ROOT/etc/systemd/system/multi-user.target.wants/smallworld-companion.service"
check "the desktop no longer starts at boot" test "$(in_root systemctl get-default)" = multi-user.target
check "the kernel command line has consoleblank=0" grep -q ' consoleblank=0$' "$ROOT$CMDLINE"
check "the kernel command line is still one line" test "$(wc -l <"$ROOT$CMDLINE")" -eq 1
check "the original command line is backed up" grep -qxF "$ORIGINAL_CMDLINE" "$ROOT$CMDLINE.smallworld-companion.bak"
check "companion doctor ran at the end" log_has install-1.log "companion doctor: what works here"
check "the summary says to reboot" log_has install-1.log "reboot ('sudo reboot')"

say "The installed app starts headless with the service's environment (8 s)"
status=0
as_pi env COMPANION_KIOSK=1 KIVY_HOME="$CONFIG_DIR/kivy" KIVY_NO_ARGS=1 KIVY_NO_FILELOG=1 \
    SDL_VIDEODRIVER=offscreen timeout 8 "$VENV/bin/companion" run \
    >"$LOGS/app.log" 2>&1 || status=$?
tail -n 12 "$LOGS/app.log" | sed 's/^/   | /'
check "the app was still running after 8 s (killed by timeout)" test "$status" -eq 124
check "Kivy reached its main loop" log_has app.log "Start application main loop"
check "no Python traceback" log_lacks app.log "Traceback"
check "Kivy kept the shipped config (no upgrade, no mouse provider added)" same_as_repo "$CONFIG_DIR/kivy/config.ini" deploy/kivy-pi.ini

say "Second run of deploy/install.sh: nothing to change (log: $LOGS/install-2.log)"
fingerprint >"$LOGS/before-2.txt"
status=0
as_pi deploy/install.sh >"$LOGS/install-2.log" 2>&1 || status=$?
sed 's/^/   | /' "$LOGS/install-2.log"
fingerprint >"$LOGS/after-2.txt"
check "the second run succeeds" test "$status" -eq 0
check "the second run installs no package" log_lacks install-2.log "apt-get install"
check "the second run adds no group" log_lacks install-2.log "usermod"
check "the second run makes no new venv" log_lacks install-2.log "python3 -m venv"
check "the second run keeps companion.toml" log_has install-2.log "kept your"
check "the second run leaves every system file as it was" cmp -s "$LOGS/before-2.txt" "$LOGS/after-2.txt"
check "the second run still upgrades the app from the checkout" log_has install-2.log "pip install"

say "deploy/uninstall.sh keeps the players' database (log: $LOGS/uninstall-1.log)"
as_pi "$VENV/bin/python" -c "import sqlite3; sqlite3.connect('$DATABASE').execute('create table t (x)')"
status=0
as_pi deploy/uninstall.sh >"$LOGS/uninstall-1.log" 2>&1 || status=$?
sed 's/^/   | /' "$LOGS/uninstall-1.log"
check "uninstall succeeds" test "$status" -eq 0
check "the unit is gone" gone_from_root "$UNIT"
check "the service is no longer enabled" gone_from_root /etc/systemd/system/multi-user.target.wants/smallworld-companion.service
check "the udev rules are gone" gone_from_root /etc/udev/rules.d/60-smallworld-companion.rules
check "the PAM file is gone" gone_from_root /etc/pam.d/smallworld-companion
check "the polkit rule is gone" gone_from_root /etc/polkit-1/rules.d/50-smallworld-companion.rules
check "the venv is gone" gone_from_root "$VENV"
check "the companion link is gone" gone_from_root "$USER_HOME/.local/bin/companion"
check "the kiosk's Kivy config is gone" gone_from_root "$CONFIG_DIR/kivy"
check "the players' database is kept" file_in_root "$DATABASE"
check "companion.toml is kept" file_in_root "$CONFIG_DIR/companion.toml"
check "the desktop starts at boot again" test "$(in_root systemctl get-default)" = graphical.target
check "the kernel command line is as it was" grep -qxF "$ORIGINAL_CMDLINE" "$ROOT$CMDLINE"
check "install.sh's record is gone" gone_from_root /var/lib/smallworld-companion

say "deploy/uninstall.sh again, then with --purge"
status=0
as_pi deploy/uninstall.sh >"$LOGS/uninstall-2.log" 2>&1 || status=$?
check "a second uninstall succeeds and finds nothing to do" test "$status" -eq 0
check "a second uninstall says so" log_has uninstall-2.log "it was already uninstalled"
status=0
as_pi deploy/uninstall.sh --purge >"$LOGS/uninstall-3.log" 2>&1 || status=$?
sed 's/^/   | /' "$LOGS/uninstall-3.log"
check "uninstall --purge succeeds" test "$status" -eq 0
check "--purge deletes the players' database" gone_from_root "$DATABASE"
check "--purge deletes companion.toml" gone_from_root "$CONFIG_DIR"

say "Result"
printf '%s checks passed, %s failed.\n' "${#PASSED[@]}" "${#FAILED[@]}"
if ((${#FAILED[@]})); then
    printf '  FAIL: %s\n' "${FAILED[@]}"
    printf 'Logs: %s (run with --keep to look inside the root)\n' "$LOGS"
    exit 1
fi
printf 'deploy-check: install, re-install and uninstall work on a fresh Debian 12.\n'
