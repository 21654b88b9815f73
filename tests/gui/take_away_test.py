"""Take it away: `tilescope tour LESSON --slides DIR` saves one image per stop, the screen the
class saw (1920x1080 unless asked otherwise), plus a PDF with a page per image; `--record FILE`
turns a range of steps into a GIF or WebP animation with a frame per step. Run as CI runs it,
under Xvfb. The files are read back here by their formats' own structure, not by size."""
import json
import os
import re
import struct
import subprocess
import tempfile

from guitest import XVFB, check, read_png, region_colours, run_tests

LESSONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "lessons")


def tilescope(binary, *args):
    env = dict(os.environ, XDG_CONFIG_HOME=tempfile.mkdtemp(prefix="tilescope-cfg-"))
    done = subprocess.run(XVFB + [binary] + list(args), env=env, capture_output=True, text=True, timeout=480)
    print(done.stdout + done.stderr)
    return done.returncode, done.stdout + done.stderr


def gif_frames(path):
    """(width, height, frames) by walking the GIF's blocks."""
    with open(path, "rb") as f:
        data = f.read()
    check(data[:6] == b"GIF89a", "%s is a GIF89a" % path)
    width, height, flags = struct.unpack("<HHB", data[6:11])
    pos = 13 + (3 * 2 ** ((flags & 7) + 1) if flags & 0x80 else 0)
    frames = 0

    def skip_blocks(p):
        while data[p]:
            p += data[p] + 1
        return p + 1

    while data[pos] != 0x3B:
        if data[pos] == 0x21:
            pos = skip_blocks(pos + 2)
        elif data[pos] == 0x2C:
            local = data[pos + 9]
            pos += 10 + (3 * 2 ** ((local & 7) + 1) if local & 0x80 else 0)
            pos = skip_blocks(pos + 1)
            frames += 1
        else:
            check(False, "%s: an unknown block 0x%02x at %d" % (path, data[pos], pos))
    return width, height, frames


def webp_frames(path):
    """(width, height, frames) from the RIFF chunks of an animated WebP."""
    with open(path, "rb") as f:
        data = f.read()
    check(data[:4] == b"RIFF" and data[8:12] == b"WEBP", "%s is a WebP" % path)
    pos, width, height, frames = 12, 0, 0, 0
    while pos + 8 <= len(data):
        kind, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        if kind == b"VP8X":
            body = data[pos + 8:pos + 18]
            width = 1 + int.from_bytes(body[4:7], "little")
            height = 1 + int.from_bytes(body[7:10], "little")
        elif kind == b"ANMF":
            frames += 1
        pos += 8 + size + (size & 1)
    return width, height, frames


def test_slides_one_image_per_stop_and_a_pdf(binary):
    with open(os.path.join(LESSONS, "default.json")) as f:
        stops = len(json.load(f)["tour"])
    folder = tempfile.mkdtemp(prefix="tilescope-slides-")
    status, out = tilescope(binary, "tour", "default", "--slides", folder)
    check(status == 0, "tour default --slides exits 0")
    slides = sorted(name for name in os.listdir(folder) if name.endswith(".png"))
    check(slides == ["stop-%02d.png" % (i + 1) for i in range(stops)], "one image per stop (%d): %s" % (stops, slides))
    for name in (slides[0], slides[-1]):
        png = read_png(os.path.join(folder, name))
        check(png[:2] == (1920, 1080), "%s is 1920x1080: %sx%s" % (name, png[0], png[1]))
        check(len(region_colours(png, 0, 40, 600, 300)) > 8, "%s shows the Guide, not a blank window" % name)
    with open(os.path.join(folder, "default.pdf"), "rb") as f:
        pdf = f.read()
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    check(pdf[:5] == b"%PDF-" and pages == stops, "default.pdf holds a page per slide: %d of %d" % (pages, stops))


def test_record_steps_as_gif_and_webp(binary):
    folder = tempfile.mkdtemp(prefix="tilescope-record-")
    for name, frames_of in (("steps.gif", gif_frames), ("steps.webp", webp_frames)):
        path = os.path.join(folder, name)
        status, _ = tilescope(binary, "tour", "default", "--record", path, "--steps", "3:7", "--width", "1366",
                              "--height", "768", "--frame-ms", "400")
        check(status == 0 and os.path.isfile(path), "--record %s exits 0 and writes it" % name)
        width, height, frames = frames_of(path)
        check((width, height, frames) == (1366, 768, 5), "%s: 1366x768, a frame per step 3 to 7: %dx%d, %d frames"
              % (name, width, height, frames))


def test_bad_take_away_requests_are_refused(binary):
    folder = tempfile.mkdtemp(prefix="tilescope-bad-")
    for args, says in ((["--record", os.path.join(folder, "x.png")], "an animation is a .gif or a .webp"),
                       (["--record", os.path.join(folder, "x.gif"), "--steps", "7:3"], "--steps wants FIRST:LAST"),
                       (["--record", os.path.join(folder, "x.gif"), "--steps", "0:100000"], "goes past the end")):
        status, out = tilescope(binary, "tour", "default", *args)
        check(status == 2 and says in out, "%s is refused (exit 2) saying \"%s\": %d" % (" ".join(args), says, status))


if __name__ == "__main__":
    run_tests(globals())
