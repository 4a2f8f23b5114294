# Shared by install.sh and uninstall.sh (sourced, never run): what each step did, was
# already in place, or leaves to do, and running a command (or, with DRY_RUN=1, only
# saying it would be run). The sourcing script sets DRY_RUN before calling run/as_root.
# shellcheck shell=bash

DONE=()
KEPT=()
LEFT=()

die() {
    printf '%s: %s\n' "${0##*/}" "$*" >&2
    exit 1
}
step() { printf '\n== %s\n' "$*"; }
say() { printf '   %s\n' "$*"; }
did() { DONE+=("$1"); }
kept() {
    KEPT+=("$1")
    say "ok: $1"
}
left() { LEFT+=("$1"); }
quoted() {
    local word out=()
    for word in "$@"; do out+=("$(printf '%q' "$word")"); done
    printf '%s' "${out[*]}"
}
# Run a command as the user (or say it would be run).
run() {
    if ((DRY_RUN)); then
        say "would run: $(quoted "$@")"
    else
        say "+ $(quoted "$@")"
        "$@"
    fi
}
# Run a command as root through sudo (or say it would be run).
as_root() {
    if ((DRY_RUN)); then
        say "would run: sudo $(quoted "$@")"
    else
        say "+ sudo $(quoted "$@")"
        sudo "$@"
    fi
}
