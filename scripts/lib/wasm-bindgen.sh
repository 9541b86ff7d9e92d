# Sourced by build-site.sh and build-npm.sh, with `repo` set: sets `bindgen`
# to the wasm-bindgen CLI of the version Cargo.lock pins for wasm-bindgen,
# found on the PATH or in $CARGO_INSTALL_ROOT/bin or $CARGO_HOME/bin, and
# exits with status 2, naming the install command, when it is missing or of
# another version. $1: the calling script's name, for the messages.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' "$repo/Cargo.lock")
bindgen=$(command -v wasm-bindgen || true)
for dir in "${CARGO_INSTALL_ROOT:-}" "${CARGO_HOME:-$HOME/.cargo}"; do
    if [[ -z "$bindgen" && -n "$dir" && -x "$dir/bin/wasm-bindgen" ]]; then
        bindgen="$dir/bin/wasm-bindgen"
    fi
done
if [[ -z "$bindgen" ]]; then
    echo "$1: wasm-bindgen is missing: cargo install wasm-bindgen-cli --version $version --locked" >&2
    exit 2
fi
have=$("$bindgen" --version | awk '{ print $2 }')
if [[ "$have" != "$version" ]]; then
    echo "$1: $bindgen is version $have; Cargo.lock pins wasm-bindgen $version" >&2
    exit 2
fi
