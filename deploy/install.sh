#!/usr/bin/env bash
# Set up this machine as the Table Companion's kiosk: the app on the screen from boot.
#
# Run it once, as the user the table runs as (e.g. pi), from the repository, on Raspberry
# Pi OS Bookworm (64-bit, Lite or Desktop) or Debian 12. It calls sudo itself for the
# system steps and refuses to run as root. Re-running it is safe: each step checks first
# and does only what is missing, and the app is reinstalled from the checkout, so
# `git pull && deploy/install.sh` upgrades it. deploy/README.md says more; --help lists
# the options. It prints each step, and at the end what it did and what is left to do.
set -euo pipefail
set -o errtrace

readonly APP=smallworld-companion
readonly SERVICE=smallworld-companion.service
readonly GROUPS_NEEDED=(gpio dialout video render input audio)

usage() {
    cat <<'EOF'
Usage: deploy/install.sh [--dry-run] [--display kms|cage] [--no-boot-config]
                         [--read-only-root [DATA_DIR]] [--print-unit] [--print-polkit]

Set up this machine as the Table Companion's kiosk: the app full screen from boot, as you.
Run it as the user the table runs as (not root, not with sudo: it calls sudo itself).

  --dry-run, -n     print every step and change nothing
  --display kms     (default) Kivy draws straight to the screen (SDL's KMS/DRM driver);
                    for Raspberry Pi OS Lite and any machine without a desktop
  --display cage    run the app inside the cage kiosk compositor (Wayland + XWayland)
  --no-boot-config  leave the boot target and /boot/firmware/cmdline.txt alone
  --read-only-root [DATA_DIR]
                    protect the SD card: keep the players' games in DATA_DIR (default
                    /data/smallworld-companion), on a data partition of its own listed in
                    /etc/fstab, and make the root file system read-only (Raspberry Pi OS's
                    overlay, with raspi-config); checks first and changes nothing when it
                    cannot be done; deploy/README.md says how to make the partition
  --print-unit      print the systemd unit as it would be installed, and stop
  --print-polkit    print the polkit rule (Shut down, Restart, USB stick) as it would be
                    installed, and stop
  -h, --help        this help

Re-running is safe and upgrades the app from this checkout. deploy/uninstall.sh undoes
it (and keeps the players' database unless given --purge).
EOF
}

DRY_RUN=0
DISPLAY_MODE=kms
BOOT_CONFIG=1
PRINT_UNIT=0
PRINT_POLKIT=0
READ_ONLY_ROOT=0
RO_DATA_DIR=/data/$APP
while (($#)); do
    case $1 in
        -n | --dry-run) DRY_RUN=1 ;;
        --display) DISPLAY_MODE=${2-}; shift ;;
        --display=*) DISPLAY_MODE=${1#*=} ;;
        --no-boot-config) BOOT_CONFIG=0 ;;
        --read-only-root)
            READ_ONLY_ROOT=1
            if [[ -n ${2-} && ${2-} != -* ]]; then RO_DATA_DIR=$2; shift; fi ;;
        --read-only-root=*) READ_ONLY_ROOT=1; RO_DATA_DIR=${1#*=} ;;
        --print-unit) PRINT_UNIT=1 ;;
        --print-polkit) PRINT_POLKIT=1 ;;
        -h | --help) usage; exit 0 ;;
        *) printf 'install.sh: unknown option: %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift || true
done
case $DISPLAY_MODE in
    kms | cage) ;;
    *) printf 'install.sh: --display takes kms or cage, not "%s"\n' "$DISPLAY_MODE" >&2; exit 2 ;;
esac
if ((READ_ONLY_ROOT)) && [[ ! $RO_DATA_DIR =~ ^/[A-Za-z0-9._/+-]*$ || /$RO_DATA_DIR/ == */../* ]]; then
    printf 'install.sh: --read-only-root takes an absolute folder of plain characters (letters, digits, . _ / + -), not "%s"\n' "$RO_DATA_DIR" >&2
    exit 2
fi
RO_DATA_DIR=${RO_DATA_DIR%/}

# --- printing and doing -------------------------------------------------------------------

# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Install SRC as DEST (mode MODE, owned by root or by the user) unless DEST already has
# exactly that content; LABEL, if given, says what SRC is. Succeeds when DEST was (or would be) written, fails when it is
# already up to date.
put_file() {
    local owner=$1 src=$2 dest=$3 mode=$4 label=${5-}
    if [[ -f $dest ]] && cmp -s "$src" "$dest"; then
        kept "$dest is up to date"
        return 1
    fi
    local what="installed"
    [[ -e $dest ]] && what="updated"
    [[ -n $label ]] && say "$dest is $label"
    if [[ $owner == root ]]; then
        as_root install -D -m "$mode" "$src" "$dest"
    else
        run install -D -m "$mode" "$src" "$dest"
    fi
    did "$what $dest"
}

on_error() {
    local status=$1 line=$2 command=$3
    printf '\ninstall.sh: stopped by a failure (exit %s) at line %s: %s\n' "$status" "$line" "$command" >&2
    printf 'Fix that and run deploy/install.sh again: it carries on from where it stopped.\n' >&2
}
trap 'on_error "$?" "$LINENO" "$BASH_COMMAND"' ERR

# --- who, where ---------------------------------------------------------------------------

((DRY_RUN)) && printf 'install.sh: dry run: nothing is changed, every step is printed.\n'

if [[ $(id -u) -eq 0 ]]; then
    die "run this as the user the table runs as (e.g. pi), not as root or with sudo.
The app must never run as root, and this script calls sudo itself for the system steps."
fi
USER_NAME=$(id -un)
USER_ID=$(id -u)
GROUP_NAME=$(id -gn)
HOME_DIR=$(getent passwd "$USER_NAME" | cut -d: -f6)
[[ -n $HOME_DIR && -d $HOME_DIR ]] || die "cannot find the home directory of $USER_NAME"

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
DEPLOY=$REPO/deploy
[[ -f $REPO/pyproject.toml && -d $REPO/companion ]] || die "run the install.sh inside the repository ($REPO has no pyproject.toml)"

# XDG directories count only when absolute, as the app reads them; the service is given
# the same ones, so it finds the same config and data as this user.
xdg_dir() {
    local value=$1 fallback=$2
    if [[ $value == /* ]]; then printf '%s' "$value"; else printf '%s' "$fallback"; fi
}
CONFIG_HOME=$(xdg_dir "${XDG_CONFIG_HOME-}" "$HOME_DIR/.config")
DATA_HOME=$(xdg_dir "${XDG_DATA_HOME-}" "$HOME_DIR/.local/share")
# These paths go into the systemd unit, where spaces and % have meanings of their own.
for path in "$REPO" "$HOME_DIR" "$CONFIG_HOME" "$DATA_HOME"; do
    [[ $path =~ ^[A-Za-z0-9._/+-]+$ ]] || die "the path '$path' has characters a systemd unit cannot take as they are (spaces, %, quotes...); move it, or set XDG_CONFIG_HOME / XDG_DATA_HOME to plain paths"
done
CONFIG_DIR=$CONFIG_HOME/$APP
CONFIG_FILE=$CONFIG_DIR/companion.toml
KIVY_HOME_DIR=$CONFIG_DIR/kivy
DATA_DIR=$DATA_HOME/$APP
VENV=$DATA_DIR/venv
BIN_LINK=$HOME_DIR/.local/bin/companion

UNIT_FILE=/etc/systemd/system/$SERVICE
UDEV_FILE=/etc/udev/rules.d/60-$APP.rules
PAM_FILE=/etc/pam.d/$APP
POLKIT_FILE=/etc/polkit-1/rules.d/50-$APP.rules
STATE_DIR=/var/lib/$APP
STATE_FILE=$STATE_DIR/install-state

OS_NAME=unknown
OS_CODENAME=unknown
if [[ -r /etc/os-release ]]; then
    # shellcheck source=/dev/null
    OS_NAME=$(. /etc/os-release && printf '%s' "${PRETTY_NAME:-unknown}")
    # shellcheck source=/dev/null
    OS_CODENAME=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-unknown}")
fi
SYSTEMD_RUNNING=0
[[ -d /run/systemd/system ]] && SYSTEMD_RUNNING=1
# The kernel command line of a Raspberry Pi (one line), if this is one.
CMDLINE=${CMDLINE_TXT:-}
if [[ -z $CMDLINE ]]; then
    for candidate in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        if [[ -f $candidate ]]; then CMDLINE=$candidate; break; fi
    done
fi

# storage.database as companion.toml sets it (absolute, ~ expanded), or nothing. The
# app checks the value itself and falls back to the data folder when it is bad.
configured_database() {
    [[ -f $CONFIG_FILE ]] && command -v python3 >/dev/null 2>&1 || return 0
    python3 - "$CONFIG_FILE" 2>/dev/null <<'PYTHON' || true
import os, sys, tomllib
try:
    with open(sys.argv[1], "rb") as stream:
        value = tomllib.load(stream).get("storage", {}).get("database", "")
except (OSError, ValueError, AttributeError):
    value = ""
if isinstance(value, str) and value and os.path.isabs(os.path.expanduser(value)):
    print(os.path.expanduser(value))
PYTHON
}
# The folder the players' database is in: the service may write there.
if ((READ_ONLY_ROOT)); then
    DATABASE_FILE=$RO_DATA_DIR/companion.sqlite3
else
    DATABASE_FILE=$(configured_database)
    [[ -n $DATABASE_FILE ]] || DATABASE_FILE=$DATA_DIR/companion.sqlite3
fi
DATABASE_DIR=$(dirname "$DATABASE_FILE")
[[ $DATABASE_DIR =~ ^[A-Za-z0-9._/+-]+$ ]] || die "storage.database in $CONFIG_FILE is in '$DATABASE_DIR', a folder a systemd unit cannot take as it is (spaces, %, quotes...): move it to a plain path"

# The systemd unit, filled in for this user and these paths.
render_unit() {
    local exec_start sdl_driver pair value text fill=()
    if [[ $DISPLAY_MODE == cage ]]; then
        exec_start="/usr/bin/cage -d -- $VENV/bin/companion run"
        sdl_driver=x11
    else
        exec_start="$VENV/bin/companion run"
        sdl_driver=kmsdrm
    fi
    for pair in "USER=$USER_NAME" "GROUP=$GROUP_NAME" "UID=$USER_ID" "REPO=$REPO" \
        "DISPLAY_MODE=$DISPLAY_MODE" "KIVY_HOME=$KIVY_HOME_DIR" "SDL_VIDEODRIVER=$sdl_driver" \
        "XDG_CONFIG_HOME=$CONFIG_HOME" "XDG_DATA_HOME=$DATA_HOME" "DATABASE_DIR=$DATABASE_DIR" \
        "EXEC_START=$exec_start"; do
        value=${pair#*=}
        value=${value//\\/\\\\}
        value=${value//&/\\&}
        fill+=(-e "s|@${pair%%=*}@|${value//|/\\|}|g")
    done
    text=$(sed "${fill[@]}" "$DEPLOY/$SERVICE.in")
    if [[ $text =~ @[A-Z_]+@ ]]; then
        die "the unit template has a placeholder this script does not fill: ${BASH_REMATCH[0]}"
    fi
    printf '%s\n' "$text"
}

# The polkit rule, filled in for this user.
render_polkit_rule() {
    sed "s|@USER@|$USER_NAME|g" "$DEPLOY/polkit-$APP.rules.in"
}

if ((PRINT_UNIT)); then
    render_unit
    exit 0
fi
if ((PRINT_POLKIT)); then
    render_polkit_rule
    exit 0
fi

# --read-only-root: everything it needs is checked before anything is changed.
ro_mount_point() { # the mount point holding DATA_DIR (or its nearest existing parent)
    local dir=$1
    while [[ ! -e $dir ]]; do dir=$(dirname "$dir"); done
    stat -c %m -- "$dir"
}
if ((READ_ONLY_ROOT)); then
    command -v raspi-config >/dev/null 2>&1 \
        || die "--read-only-root needs raspi-config (Raspberry Pi OS), and this system has none. Nothing was changed.
deploy/README.md ('Protect the SD card') says how to do it by hand; or run install.sh without --read-only-root."
    RO_MOUNT=$(ro_mount_point "$RO_DATA_DIR")
    if [[ $RO_MOUNT == / ]]; then
        die "$RO_DATA_DIR is on the root partition, which --read-only-root makes read-only: every game saved there would be lost at the next reboot. Nothing was changed.
Make a data partition and mount it (deploy/README.md, 'Protect the SD card'), e.g. at /data, then run: deploy/install.sh --read-only-root /data/$APP"
    fi
    FSTAB=${FSTAB_FILE:-/etc/fstab}
    if ! awk -v mp="$RO_MOUNT" '$1 !~ /^#/ && $2 == mp { found = 1 } END { exit !found }' "$FSTAB" 2>/dev/null; then
        die "$RO_MOUNT (where $RO_DATA_DIR is) is mounted now but not listed in $FSTAB, so it would not be there after a reboot. Nothing was changed.
Add its line to $FSTAB (deploy/README.md, 'Protect the SD card'), then run install.sh again."
    fi
fi

step "Installing the Table Companion for $USER_NAME"
say "repository:   $REPO"
say "system:       $OS_NAME"
say "display path: $DISPLAY_MODE"
say "app (venv):   $VENV"
say "config:       $CONFIG_FILE"
say "service:      $UNIT_FILE (runs as $USER_NAME, never root)"
if [[ $OS_CODENAME != bookworm ]]; then
    say "warning: this is made for Debian 12 / Raspberry Pi OS bookworm, not '$OS_CODENAME'; carrying on"
fi
command -v sudo >/dev/null 2>&1 || die "sudo is missing: as root, run 'apt-get install sudo' and 'adduser $USER_NAME sudo', then log in again"
if ((!DRY_RUN)); then
    say "sudo may ask for your password once"
    sudo -v || die "sudo refused: $USER_NAME must be allowed to use sudo"
fi

# --- 1. system packages -------------------------------------------------------------------

step "1. System packages"
# Kivy's wheel brings its own SDL2; SDL's KMS/DRM driver loads libdrm, libgbm and EGL, and
# Kivy draws with GL through Mesa. libmtdev1 is what Kivy's mtdev touch provider reads
# the touchscreen with. libpam-systemd gives the service its logind session (its seat).
# udisks2 mounts a USB stick for "Save a copy to a USB stick"; polkitd reads the rule that
# lets the user shut down, restart and use the stick from the screen.
PACKAGES=(python3 python3-venv ca-certificates libpam-systemd
    libegl1 libgl1 libgles2 libegl-mesa0 libgl1-mesa-dri libgbm1 libdrm2 libmtdev1
    udisks2 polkitd)
if [[ $DISPLAY_MODE == cage ]]; then
    PACKAGES+=(cage xwayland)
fi
# gpiozero's pin library on Raspberry Pi OS (the only one that works on a Pi 5); the
# virtual environment sees it through --system-site-packages. Plain Debian lacks it.
if apt-cache show python3-lgpio >/dev/null 2>&1; then
    PACKAGES+=(python3-lgpio)
else
    say "note: python3-lgpio is not in this system's package lists (not Raspberry Pi OS): no GPIO pin library from apt"
fi
MISSING=()
for package in "${PACKAGES[@]}"; do
    if [[ $(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true) != installed ]]; then
        MISSING+=("$package")
    fi
done
if ((${#MISSING[@]})); then
    say "missing: ${MISSING[*]}"
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${MISSING[@]}"
    did "installed the system packages ${MISSING[*]}"
else
    kept "system packages installed (${PACKAGES[*]})"
fi
if ((!DRY_RUN)) || command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "Python 3.11 or newer is needed; this system has $(python3 -V 2>&1)"
fi

# --- 2. groups ----------------------------------------------------------------------------

step "2. Groups for $USER_NAME: ${GROUPS_NEEDED[*]}"
# gpio: the die button, LED and buzzer; dialout: the sensor grid; video and render: the
# screen and the GPU; input: the touchscreen; audio: the sound cues (ALSA's devices). The service gets them at its next start;
# your own shell at your next login.
read -r -a MEMBER_OF <<<"$(id -nG "$USER_NAME")"
for group in "${GROUPS_NEEDED[@]}"; do
    if ! getent group "$group" >/dev/null; then
        as_root groupadd --system "$group"
        did "created the group $group (this system had none)"
    fi
    if [[ " ${MEMBER_OF[*]} " == *" $group "* ]]; then
        kept "$USER_NAME is in the group $group"
    else
        as_root usermod -a -G "$group" "$USER_NAME"
        did "added $USER_NAME to the group $group"
        GROUPS_CHANGED=1
    fi
done

# --- 3. the app in its virtual environment ------------------------------------------------

step "3. The app in a virtual environment"
if [[ -x $VENV/bin/python ]] && "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1; then
    kept "virtual environment $VENV exists"
else
    if [[ -e $VENV ]]; then
        say "$VENV is broken (its Python does not start): making it again"
        run rm -rf "$VENV"
    fi
    run mkdir -p "$DATA_DIR" # also where the players' database goes
    # --system-site-packages: gpiozero's pin library (python3-lgpio) comes from apt.
    run python3 -m venv --system-site-packages "$VENV"
    did "created the virtual environment $VENV"
fi
# Always reinstall from the checkout: this is how a re-run upgrades the app. Dependencies
# are only installed when missing or no longer matching pyproject.toml.
run "$VENV/bin/python" -m pip install --disable-pip-version-check --quiet "$REPO"
did "installed the app from $REPO into $VENV"
if [[ -L $BIN_LINK && $(readlink "$BIN_LINK") == "$VENV/bin/companion" ]]; then
    kept "$BIN_LINK points to the app"
elif [[ -e $BIN_LINK || -L $BIN_LINK ]]; then
    say "note: $BIN_LINK exists and is not ours: left alone (the app is $VENV/bin/companion)"
else
    run mkdir -p "$(dirname "$BIN_LINK")"
    run ln -s "$VENV/bin/companion" "$BIN_LINK"
    did "linked $BIN_LINK (the 'companion' command, e.g. 'companion doctor')"
fi

# --- 4. configuration ---------------------------------------------------------------------

step "4. Configuration"
if [[ -e $CONFIG_FILE ]]; then
    kept "kept your $CONFIG_FILE (never overwritten; compare with deploy/companion.example.toml)"
else
    run install -D -m 644 "$DEPLOY/companion.example.toml" "$CONFIG_FILE"
    did "wrote $CONFIG_FILE (every key at its default; edit it, then 'companion doctor')"
fi
# The kiosk's own Kivy configuration: ours, so it is put back as shipped on every run.
put_file user "$DEPLOY/kivy-pi.ini" "$KIVY_HOME_DIR/config.ini" 644 || true
if ((READ_ONLY_ROOT)); then
    # The players' games on the data partition: a folder of the user's alone there, and
    # storage.database pointing at it (written by the app's own settings writer).
    if [[ -d $RO_DATA_DIR ]]; then
        kept "the data folder $RO_DATA_DIR exists (on $RO_MOUNT)"
    else
        as_root install -d -m 700 -o "$USER_NAME" -g "$GROUP_NAME" "$RO_DATA_DIR"
        did "made the data folder $RO_DATA_DIR (on $RO_MOUNT, yours alone)"
    fi
    previous_database=$(configured_database)
    if [[ $previous_database == "$DATABASE_FILE" ]]; then
        kept "storage.database in $CONFIG_FILE is $DATABASE_FILE"
    else
        run "$VENV/bin/python" -c 'import sys; from pathlib import Path; from companion.config import save_config_values; save_config_values({"storage.database": sys.argv[1]}, Path(sys.argv[2]))' "$DATABASE_FILE" "$CONFIG_FILE"
        did "set storage.database = \"$DATABASE_FILE\" in $CONFIG_FILE"
        old_database=${previous_database:-$DATA_DIR/companion.sqlite3}
        if [[ -e $old_database && ! -e $DATABASE_FILE ]]; then
            left "the games saved so far are still in $old_database: move them and their backups, with the service stopped: sudo systemctl stop $SERVICE; mv $old_database* $(dirname "$old_database")/backups $RO_DATA_DIR/"
        fi
    fi
fi

# --- 5. devices: udev ---------------------------------------------------------------------

step "5. Devices: the grid's stable name, GPIO and backlight permissions (udev)"
if put_file root "$DEPLOY/60-$APP.rules" "$UDEV_FILE" 644; then
    if [[ -d /run/udev ]] && command -v udevadm >/dev/null 2>&1; then
        as_root udevadm control --reload-rules
        as_root udevadm trigger --action=add --subsystem-match=tty --subsystem-match=gpio --subsystem-match=backlight
    else
        say "udev is not running here: the rules apply from the next boot"
    fi
fi

# --- 6. the service -----------------------------------------------------------------------

step "6. The service: the app on tty1 from boot, as $USER_NAME"
RENDERED=$(mktemp)
trap 'rm -f "$RENDERED"' EXIT
render_unit >"$RENDERED"
put_file root "$DEPLOY/pam-$APP" "$PAM_FILE" 644 || true
# Shut down, Restart and the USB stick from the screen, for this user only (polkitd reads
# its rules when they change: no reload).
POLKIT_RENDERED=$(mktemp)
trap 'rm -f "$RENDERED" "$POLKIT_RENDERED"' EXIT
render_polkit_rule >"$POLKIT_RENDERED"
put_file root "$POLKIT_RENDERED" "$POLKIT_FILE" 644 "deploy/polkit-$APP.rules.in filled in: $USER_NAME may shut down, restart and mount or eject a USB stick" || true
if put_file root "$RENDERED" "$UNIT_FILE" 644 "deploy/$SERVICE.in filled in (see --print-unit)"; then
    if ((SYSTEMD_RUNNING)); then as_root systemctl daemon-reload; fi
fi
if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then
    kept "$SERVICE is enabled (starts at boot)"
else
    as_root systemctl enable "$SERVICE"
    did "enabled $SERVICE (starts at boot)"
fi

# --- 7. boot: no desktop, no blanking -----------------------------------------------------

step "7. Boot: straight into the app, the screen never blanked by the system"
record_state() { # KEY VALUE: remember what we changed, once, for uninstall.sh
    local key=$1 value=$2
    if [[ -f $STATE_FILE ]] && grep -q "^$key=" "$STATE_FILE"; then
        return 0
    fi
    if ((DRY_RUN)); then
        say "would record $key=$value in $STATE_FILE (for uninstall.sh)"
    else
        [[ -d $STATE_DIR ]] || as_root mkdir -p "$STATE_DIR"
        say "+ record $key=$value in $STATE_FILE (for uninstall.sh)"
        printf '%s=%s\n' "$key" "$value" | sudo tee -a "$STATE_FILE" >/dev/null
    fi
}
if ((!BOOT_CONFIG)); then
    say "--no-boot-config: boot target and kernel command line left alone"
    left "make sure no desktop takes the screen at boot, and that the console does not blank (consoleblank=0)"
else
    # A desktop's display manager would take the screen from the app: boot to the console
    # target instead (the service starts there). uninstall.sh puts the desktop back.
    if [[ -e /etc/systemd/system/display-manager.service ]]; then
        current_target=$(systemctl get-default 2>/dev/null || echo unknown)
        if [[ $current_target == graphical.target ]]; then
            record_state previous_default_target "$current_target"
            as_root systemctl set-default multi-user.target
            did "the desktop no longer starts at boot (default target multi-user.target; uninstall.sh restores it)"
        else
            kept "the desktop does not start at boot (default target $current_target)"
        fi
    else
        kept "no desktop (display manager) to keep off the screen"
    fi
    # The console blanks after a while by default; the app dims itself instead. On a Pi
    # the kernel command line is in /boot/firmware/cmdline.txt (one line).
    if [[ -z $CMDLINE || ! -f $CMDLINE ]]; then
        kept "no Raspberry Pi cmdline.txt here: console blanking left as the kernel has it ($(cat /sys/module/kernel/parameters/consoleblank 2>/dev/null || echo unknown) s; 0 is never)"
    elif grep -qE '(^|[[:space:]])consoleblank=0([[:space:]]|$)' "$CMDLINE"; then
        kept "$CMDLINE already has consoleblank=0"
    else
        previous=$(grep -oE '(^|[[:space:]])consoleblank=[0-9]+' "$CMDLINE" | tr -d '[:space:]' || true)
        record_state previous_consoleblank "${previous:-none}"
        NEW_CMDLINE=$(mktemp)
        trap 'rm -f "$RENDERED" "$POLKIT_RENDERED" "$NEW_CMDLINE"' EXIT
        sed -E -e 's/(^|[[:space:]])consoleblank=[0-9]+//g' -e 's/[[:space:]]+$//' -e 's/$/ consoleblank=0/' "$CMDLINE" >"$NEW_CMDLINE"
        if [[ ! -e $CMDLINE.$APP.bak ]]; then
            as_root cp -p "$CMDLINE" "$CMDLINE.$APP.bak"
        fi
        as_root cp "$NEW_CMDLINE" "$CMDLINE"
        did "added consoleblank=0 to $CMDLINE (backup: $CMDLINE.$APP.bak)"
        REBOOT_NEEDED=1
    fi
fi

# --- 8. start or restart -------------------------------------------------------------------

step "8. Start"
if ((SYSTEMD_RUNNING)) && systemctl is-active --quiet "$SERVICE" 2>/dev/null; then
    as_root systemctl restart "$SERVICE"
    did "restarted $SERVICE: the new version is on the screen"
else
    REBOOT_NEEDED=1
    say "the app starts at the next boot"
fi
left "set the rotation, the die button's pin and the grid in $CONFIG_FILE if yours differ"

# --- 9. check ------------------------------------------------------------------------------

step "9. Check: companion doctor"
if ((DRY_RUN)); then
    say "would run: $VENV/bin/companion doctor"
else
    if "$VENV/bin/companion" doctor; then
        kept "companion doctor found nothing to fix"
    else
        left "fix what 'companion doctor' lists above (some only show after the reboot)"
    fi
fi

# --- 10. read-only root ---------------------------------------------------------------------

if ((READ_ONLY_ROOT)); then
    step "10. Read-only root: the SD card protected, the games on $RO_MOUNT"
    if [[ -n $CMDLINE && -f $CMDLINE ]] && grep -qE '(^|[[:space:]])boot=overlay([[:space:]]|$)' "$CMDLINE"; then
        kept "the overlay file system is on ($CMDLINE has boot=overlay): the root is read-only"
    else
        as_root raspi-config nonint do_overlayfs 0
        did "turned the overlay file system on (raspi-config): from the next boot the root is read-only and changes to it last until a reboot"
        REBOOT_NEEDED=1
    fi
    left "after the reboot, check: 'findmnt /' says overlay, and 'findmnt --target $RO_DATA_DIR' says $RO_MOUNT, rw (not overlay); then 'companion doctor'"
    left "the root is read-only from then on: a change there (companion.toml from the settings screen, an upgrade, apt) lasts until the next reboot. To change it for good: sudo raspi-config nonint do_overlayfs 1, reboot, change it (e.g. git pull && deploy/install.sh --read-only-root $RO_DATA_DIR), reboot"
fi

if [[ ${REBOOT_NEEDED-0} == 1 || ${GROUPS_CHANGED-0} == 1 ]]; then
    left "reboot ('sudo reboot'): the Pi then boots straight into the app"
fi
if [[ ${GROUPS_CHANGED-0} == 1 ]]; then
    left "your own shell gets the new groups at your next login (the service already has them)"
fi

# --- summary -------------------------------------------------------------------------------

step "Summary"
if ((DRY_RUN)); then printf 'Would do:\n'; else printf 'Done:\n'; fi
if ((${#DONE[@]})); then printf '  - %s\n' "${DONE[@]}"; else printf '  (nothing: everything was already in place)\n'; fi
printf 'Already in place:\n'
if ((${#KEPT[@]})); then printf '  - %s\n' "${KEPT[@]}"; else printf '  (nothing yet)\n'; fi
printf 'Left to do:\n'
printf '  - %s\n' "${LEFT[@]}"
printf 'Logs: journalctl -u %s -b    Undo: deploy/uninstall.sh\n' "$APP"
