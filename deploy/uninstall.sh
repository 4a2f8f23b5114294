#!/usr/bin/env bash
# Undo deploy/install.sh: stop and remove the kiosk service and what was installed for it.
#
# Run it as the same user who ran install.sh (not root; it calls sudo itself). The
# players' database and companion.toml are kept unless --purge is given. The system
# packages and the group memberships stay (other programs may need them); the summary
# says how to remove them. Re-running it is safe: what is already gone is skipped.
set -euo pipefail
set -o errtrace

readonly APP=smallworld-companion
readonly SERVICE=smallworld-companion.service

usage() {
    cat <<'EOF'
Usage: deploy/uninstall.sh [--dry-run] [--purge]

Remove the Table Companion's kiosk set-up made by deploy/install.sh. Run it as the user
who installed it (not root, not with sudo: it calls sudo itself).

  --dry-run, -n  print every step and change nothing
  --purge        also delete the players' database (every saved game) and companion.toml
  -h, --help     this help
EOF
}

DRY_RUN=0
PURGE=0
while (($#)); do
    case $1 in
        -n | --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        -h | --help) usage; exit 0 ;;
        *) printf 'uninstall.sh: unknown option: %s\n\n' "$1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

# shellcheck source=deploy/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Remove a file or directory (as root or as the user) if it is there.
remove() {
    local owner=$1 path=$2 what=$3
    if [[ ! -e $path && ! -L $path ]]; then
        kept "$what already gone ($path)"
        return 1
    fi
    if [[ $owner == root ]]; then as_root rm -rf "$path"; else run rm -rf "$path"; fi
    did "removed $what ($path)"
}
on_error() {
    local status=$1 line=$2 command=$3
    printf '\nuninstall.sh: stopped by a failure (exit %s) at line %s: %s\n' "$status" "$line" "$command" >&2
    printf 'Fix that and run deploy/uninstall.sh again: it skips what is already gone.\n' >&2
}
trap 'on_error "$?" "$LINENO" "$BASH_COMMAND"' ERR

((DRY_RUN)) && printf 'uninstall.sh: dry run: nothing is changed, every step is printed.\n'
if [[ $(id -u) -eq 0 ]]; then
    die "run this as the user who ran install.sh, not as root or with sudo (it calls sudo itself)"
fi
command -v sudo >/dev/null 2>&1 || die "sudo is missing"
USER_NAME=$(id -un)
HOME_DIR=$(getent passwd "$USER_NAME" | cut -d: -f6)
[[ -n $HOME_DIR && -d $HOME_DIR ]] || die "cannot find the home directory of $USER_NAME"
xdg_dir() {
    local value=$1 fallback=$2
    if [[ $value == /* ]]; then printf '%s' "$value"; else printf '%s' "$fallback"; fi
}
CONFIG_HOME=$(xdg_dir "${XDG_CONFIG_HOME-}" "$HOME_DIR/.config")
DATA_HOME=$(xdg_dir "${XDG_DATA_HOME-}" "$HOME_DIR/.local/share")
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
SYSTEMD_RUNNING=0
[[ -d /run/systemd/system ]] && SYSTEMD_RUNNING=1
CMDLINE=${CMDLINE_TXT:-}
if [[ -z $CMDLINE ]]; then
    for candidate in /boot/firmware/cmdline.txt /boot/cmdline.txt; do
        if [[ -f $candidate ]]; then CMDLINE=$candidate; break; fi
    done
fi
# With the read-only root (install.sh --read-only-root), every removal would come back at
# the next reboot: turn the overlay off first.
if [[ -n $CMDLINE && -f $CMDLINE ]] && grep -qE '(^|[[:space:]])boot=overlay([[:space:]]|$)' "$CMDLINE"; then
    die "the root file system is read-only (the overlay is on: boot=overlay in $CMDLINE), so whatever this removes would come back at the next reboot. Nothing was changed.
Turn the overlay off first: sudo raspi-config nonint do_overlayfs 1, reboot, then run deploy/uninstall.sh again."
fi
if ((!DRY_RUN)); then
    say "sudo may ask for your password once"
    sudo -v || die "sudo refused: $USER_NAME must be allowed to use sudo"
fi

# Where the players' games are: ask the installed app (companion.toml may move them).
DATABASE=$DATA_DIR/companion.sqlite3
if [[ -x $VENV/bin/python ]]; then
    configured=$("$VENV/bin/python" -c 'from companion.config import load_config; print(load_config(None)[0].storage.database)' 2>/dev/null || true)
    [[ $configured == /* ]] && DATABASE=$configured
fi

step "Removing the Table Companion's kiosk set-up for $USER_NAME"

step "1. The service"
if [[ -e $UNIT_FILE ]]; then
    if ((SYSTEMD_RUNNING)); then
        as_root systemctl disable --now "$SERVICE"
    else
        as_root systemctl disable "$SERVICE"
    fi
    did "stopped and disabled $SERVICE"
fi
if remove root "$UNIT_FILE" "the service unit"; then
    if ((SYSTEMD_RUNNING)); then
        as_root systemctl daemon-reload
        as_root systemctl reset-failed "$SERVICE" || true
        as_root systemctl start getty@tty1.service
        did "gave tty1 back to the console login"
    fi
fi
remove root "$PAM_FILE" "the service's PAM file" || true
remove root "$POLKIT_FILE" "the polkit rule (Shut down, Restart and the USB stick from the screen)" || true

step "2. The udev rules"
if remove root "$UDEV_FILE" "the udev rules (grid name, GPIO and backlight permissions)"; then
    if [[ -d /run/udev ]] && command -v udevadm >/dev/null 2>&1; then
        as_root udevadm control --reload-rules
    fi
fi

step "3. Boot settings install.sh changed"
state() { # KEY: the value install.sh recorded, or nothing
    [[ -f $STATE_FILE ]] || return 0
    sed -n "s/^$1=//p" "$STATE_FILE" | head -n 1
}
previous_target=$(state previous_default_target)
if [[ -n $previous_target ]]; then
    as_root systemctl set-default "$previous_target"
    did "the desktop starts at boot again (default target $previous_target)"
else
    kept "boot target was not changed by install.sh"
fi
previous_blank=$(state previous_consoleblank)
if [[ -n $previous_blank ]]; then
    if [[ -n $CMDLINE && -f $CMDLINE ]]; then
        replacement=""
        [[ $previous_blank != none ]] && replacement=" $previous_blank"
        NEW_CMDLINE=$(mktemp)
        trap 'rm -f "$NEW_CMDLINE"' EXIT
        sed -E -e "s/(^|[[:space:]])consoleblank=0([[:space:]]|\$)/${replacement}\\2/" -e 's/^[[:space:]]+//' "$CMDLINE" >"$NEW_CMDLINE"
        as_root cp "$NEW_CMDLINE" "$CMDLINE"
        did "restored console blanking in $CMDLINE (${previous_blank})"
        left "reboot for the kernel command line to take effect"
    fi
fi
remove root "$STATE_DIR" "install.sh's record of boot changes" || true

step "4. The app"
remove user "$VENV" "the app's virtual environment" || true
if [[ -L $BIN_LINK && $(readlink "$BIN_LINK") == "$VENV/bin/companion" ]]; then
    run rm -f "$BIN_LINK"
    did "removed the companion command link ($BIN_LINK)"
fi
remove user "$KIVY_HOME_DIR" "the kiosk's Kivy configuration" || true

step "5. The players' data and the configuration"
if ((PURGE)); then
    for file in "$DATABASE" "$DATABASE-wal" "$DATABASE-shm" "$DATABASE-journal"; do
        remove user "$file" "the players' database file" || true
    done
    remove user "$CONFIG_DIR" "the configuration (companion.toml)" || true
    if [[ -d $DATA_DIR ]]; then
        remove user "$DATA_DIR" "the data directory" || true
    fi
else
    if [[ -e $DATABASE ]]; then
        kept "kept the players' database $DATABASE (--purge deletes it)"
    else
        kept "no players' database at $DATABASE"
    fi
    if [[ -e $CONFIG_FILE ]]; then
        kept "kept $CONFIG_FILE (--purge deletes it)"
    fi
fi

left "group memberships stay (gpio dialout video render input audio); remove one with 'sudo gpasswd -d $USER_NAME GROUP'"
left "system packages stay (Mesa, libmtdev1, python3-venv...); remove them with apt if nothing else needs them"

step "Summary"
if ((DRY_RUN)); then printf 'Would do:\n'; else printf 'Done:\n'; fi
if ((${#DONE[@]})); then printf '  - %s\n' "${DONE[@]}"; else printf '  (nothing: it was already uninstalled)\n'; fi
printf 'Already so:\n'
if ((${#KEPT[@]})); then printf '  - %s\n' "${KEPT[@]}"; else printf '  (nothing)\n'; fi
printf 'Left to do:\n'
printf '  - %s\n' "${LEFT[@]}"
