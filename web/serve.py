"""Serves TileScope's site (build-web/site) on localhost, as scripts/build.sh web does.

A static server, with the two headers that make a page cross-origin isolated: the browser then
gives it SharedArrayBuffer, which Emscripten's worker threads need.
Usage: python3 web/serve.py SITE_DIR [PORT]   (PORT 0 picks a free one; the first line printed
is the address served)."""
import functools
import http.server
import sys


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".data": "application/octet-stream"}

    def end_headers(self):
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, *args):
        pass  # one line per file would bury the address


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: python3 web/serve.py SITE_DIR [PORT]")
    port = int(sys.argv[2]) if len(sys.argv) == 3 else 8080
    handler = functools.partial(IsolatedHandler, directory=sys.argv[1])
    with http.server.ThreadingHTTPServer(("localhost", port), handler) as server:
        print(f"http://localhost:{server.server_address[1]}/", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
