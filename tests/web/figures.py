"""The site's figures, measured here in headless Chromium (docs/web.md): the size of what a
browser downloads, raw and gzip-compressed; the time from the page's start to the first frame of
the default lesson; frames per second while the lesson steps once a frame (--bench-frames); and,
with --shots DIR, screenshots of the default lesson's second stop at 1366×768 and 1920×1080, the
second also at device-pixel-ratio 2, and of F1's list.
Usage: python3 tests/web/figures.py SITE_DIR [--frames N] [--shots DIR]"""
import argparse
import gzip
import os
import re

from browser import Browser, Site

DOWNLOADS = ["index.html", "tilescope.js", "tilescope.worker.js", "tilescope.wasm", "tilescope.data"]
SCREENS = [(1366, 768, 1), (1920, 1080, 1), (1366, 768, 2)]


def print_sizes(site_dir):
    raw = packed = 0
    for name in DOWNLOADS:
        with open(os.path.join(site_dir, name), "rb") as f:
            data = f.read()
        size = len(gzip.compress(data, 9))
        raw += len(data)
        packed += size
        print(f"{name}: {len(data) / 1e6:.2f} MB, gzip -9 {size / 1e6:.2f} MB")
    print(f"all downloads: {raw / 1e6:.2f} MB, gzip -9 {packed / 1e6:.2f} MB")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("site_dir")
    parser.add_argument("--frames", type=int, default=300, help="frames the benchmark steps (default 300)")
    parser.add_argument("--shots", help="folder for the screenshots")
    args = parser.parse_args()
    print_sizes(args.site_dir)
    with Site(args.site_dir) as site:
        with Browser(*SCREENS[0]) as browser:
            browser.open(site.url + "#lesson=default")
            print(f"first frame of the default lesson: {browser.wait_until_ready()} ms after the page started")
            if args.shots:
                os.makedirs(args.shots, exist_ok=True)
                browser.press("F1", "F1", 112)
                browser.next_frames(5)
                path = os.path.join(args.shots, "web-help-1366x768.png")
                browser.screenshot(path)
                print("screenshot:", path)
        with Browser(*SCREENS[0]) as browser:
            browser.open(site.url + f"#lesson=default&bench={args.frames}")
            browser.wait_until("document.getElementById('tilescope-output').textContent.includes('bench-frames:')",
                               600, "no benchmark figures")
            print(re.search(r"bench-frames:.*", browser.text_of("tilescope-output")).group(0))
        if args.shots:
            for width, height, scale in SCREENS:
                for name, link in (("stop2", "#lesson=default&stop=2"), ("presentation", "#lesson=default&stop=4&presentation")):
                    with Browser(width, height, scale) as browser:
                        browser.open(site.url + link)
                        browser.wait_until_ready()
                        ratio = f"-ratio{scale}" if scale != 1 else ""
                        path = os.path.join(args.shots, f"web-{name}-{width}x{height}{ratio}.png")
                        browser.screenshot(path)
                        print("screenshot:", path)


if __name__ == "__main__":
    main()
