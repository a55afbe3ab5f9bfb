# scripts/build/install-packages.sh: sourced by the project's scripts.
#
# install_packages WHO PACKAGE...: installs (apt-get, as root or with sudo)
# those of the Debian packages that are missing, saying so as WHO. A
# package may start its service on install (redis-server, redis-sentinel,
# php8.2-fpm); the
# project starts its own on other ports, so a service that was not running
# before is stopped again. A service that was running stays as it was.
install_packages() {
    local who=$1 p svc sudo="" missing=() running=() lockfd
    shift
    for p in "$@"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    # Scripts run side by side (CI's lanes) install one at a time: apt-get
    # refuses to start while another holds its lock.
    exec {lockfd}>"${TMPDIR:-/tmp}/redislock-install-packages.lock"
    flock "$lockfd"
    local left=()
    for p in "${missing[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || left+=("$p")
    done
    missing=("${left[@]}")
    if [ ${#missing[@]} -eq 0 ]; then
        exec {lockfd}>&-
        return 0
    fi
    echo "$who: installing ${missing[*]}"
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    for svc in redis-server redis-sentinel php8.2-fpm; do
        $sudo service "$svc" status >/dev/null 2>&1 && running+=("$svc")
    done
    DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    for svc in redis-server redis-sentinel php8.2-fpm; do
        [[ " ${running[*]} " == *" $svc "* ]] || $sudo service "$svc" stop >/dev/null 2>&1 || true
    done
    exec {lockfd}>&-
}
