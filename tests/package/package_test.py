"""The Debian package as a lab administrator gets it (issue 18): CPack builds the .deb from
this build tree, `dpkg -x` unpacks it into a throw-away root, and the installed binary is
run from an unrelated folder with a bare environment: --version must name the unpacked
prefix's assets and GPU module, `trace` must print what the build tree's binary prints, the
GUI must draw the default lesson under Xvfb with the packaged fonts, the menu entry must
validate, and lintian must report no errors and no warnings.

package_test.py CPACK CPACK_CONFIG BUILD_BINARY VERSION HAS_CUDA(ON|OFF) ASSETS_DIR SCREENSHOT
SCREENSHOT is kept (outside the throw-away root) so a person can look at the window.
"""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "gui"))
from guitest import XVFB, check, read_png  # noqa: E402

# The icon theme spec's minimum is 48x48; menus and panels ask for 16 and 32 too.
REQUIRED_ICON_SIZES = [16, 32, 48]
# Nothing of CUDA may become a dependency: the GPU module is optional at run time.
CUDA_WORDS = ["cuda", "cublas", "nvidia"]


def run(command, **kwargs):
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    return done.returncode, done.stdout + done.stderr


class Package:
    def __init__(self, args):
        (self.cpack, self.cpack_config, self.build_binary, self.version, has_cuda, self.assets_dir,
         self.screenshot) = args
        self.has_cuda = has_cuda == "ON"
        self.tmp = os.path.realpath(tempfile.mkdtemp(prefix="tilescope-package-"))
        self.root = os.path.join(self.tmp, "root")
        self.prefix = os.path.join(self.root, "usr")
        self.binary = os.path.join(self.prefix, "bin", "tilescope")
        self.module = os.path.join(self.prefix, "lib", "tilescope", "gpu", "libtilescope_gpu.so")
        # An empty folder to run from, and a bare environment: no LD_LIBRARY_PATH, no
        # TILESCOPE_FONT_DIR, no settings of the person running the tests.
        self.elsewhere = os.path.join(self.tmp, "elsewhere")
        os.makedirs(self.elsewhere)
        self.env = {"PATH": "/usr/bin:/bin", "HOME": os.path.join(self.tmp, "home"),
                    "XDG_CONFIG_HOME": os.path.join(self.tmp, "config"), "LC_ALL": "C.UTF-8"}
        # In the sanitized build (scripts/sanitize.sh), the sanitizers' settings go along: where
        # reports are counted, and no leak check where the GL driver's own leaks would abort the GUI.
        self.env.update({k: v for k, v in os.environ.items() if k in ("ASAN_OPTIONS", "UBSAN_OPTIONS")})

    def app(self, binary, *args, env=None):
        status, output = run([binary] + list(args), cwd=self.elsewhere, env=dict(self.env, **(env or {})),
                             timeout=120)
        print(output)
        return status, output

    def build(self):
        status, output = run([self.cpack, "--config", self.cpack_config, "-B", os.path.join(self.tmp, "out")],
                             cwd=self.tmp, timeout=300)
        print(output)
        check(status == 0, "cpack builds the package")
        arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True).stdout.strip()
        self.deb = os.path.join(self.tmp, "out", "tilescope_%s_%s.deb" % (self.version, arch))
        check(os.path.isfile(self.deb), "the package is " + os.path.basename(self.deb))

    def check_control(self):
        fields = {}
        for field in ["Package", "Version", "Maintainer", "Description", "Depends", "Recommends", "Pre-Depends"]:
            fields[field] = subprocess.run(["dpkg-deb", "-f", self.deb, field], capture_output=True,
                                           text=True).stdout.strip()
        print("Depends: " + fields["Depends"])
        check(fields["Package"] == "tilescope" and fields["Version"] == self.version,
              "package tilescope, version %s from project()" % self.version)
        check("@" in fields["Maintainer"] and "\n" in fields["Description"], "maintainer and long description filled")
        depends = [d.strip().split(" ")[0] for d in fields["Depends"].split(",")]
        # libglfw3 and libstdc++6 come only from dpkg-shlibdeps reading the binary.
        # libcairo2, libgif7 and libwebpmux3 likewise: tour --slides and --record write through them.
        for package in ["fonts-dejavu-core", "libglfw3", "libstdc++6", "libc6", "libcairo2", "libgif7", "libwebpmux3"]:
            check(package in depends, "Depends names " + package)
        relations = " ".join([fields["Depends"], fields["Recommends"], fields["Pre-Depends"]]).lower()
        check(not any(word in relations for word in CUDA_WORDS), "no dependency on CUDA")

    def check_contents(self):
        listing = subprocess.run(["dpkg-deb", "-c", self.deb], capture_output=True, text=True).stdout
        files = {line.split()[-1] for line in listing.splitlines() if not line.startswith("d")}
        check(all(f.startswith("./usr/") for f in files), "every file under /usr")
        expected = ["./usr/bin/tilescope", "./usr/share/applications/tilescope.desktop",
                    "./usr/share/icons/hicolor/scalable/apps/tilescope.svg",
                    "./usr/share/man/man1/tilescope.1.gz", "./usr/share/doc/tilescope/copyright",
                    "./usr/share/doc/tilescope/changelog.gz"]
        expected += ["./usr/share/icons/hicolor/%dx%d/apps/tilescope.png" % (s, s) for s in REQUIRED_ICON_SIZES]
        # Whatever assets/ holds travels: lessons today, more as lessons grow.
        for folder, _, names in os.walk(self.assets_dir):
            for name in names:
                relative = os.path.relpath(os.path.join(folder, name), self.assets_dir)
                expected.append("./usr/share/tilescope/" + relative)
        missing = [f for f in expected if f not in files]
        check(not missing, "the package holds the binary, assets, menu entry, icons, man page, docs %s" % missing)
        module = "./usr/lib/tilescope/gpu/libtilescope_gpu.so"
        check((module in files) == self.has_cuda,
              "the GPU module is packaged" if self.has_cuda else "no GPU module in a build without CUDA")
        worker = "./usr/lib/tilescope/gpu/tilescope-gpu-worker"
        check((worker in files) == self.has_cuda,
              "the GPU worker is packaged beside the module" if self.has_cuda else "no GPU worker without CUDA")

    def unpack(self):
        status, output = run(["dpkg", "-x", self.deb, self.root])
        check(status == 0, "dpkg -x unpacks it " + output)

    def check_version(self):
        status, output = self.app(self.binary, "--version")
        absent = "" if self.has_cuda else " (absent: built without CUDA)"
        check(status == 0 and output.splitlines() == ["tilescope " + self.version,
                                                      "assets: " + os.path.join(self.prefix, "share", "tilescope"),
                                                      "GPU module: " + self.module + absent],
              "--version names the unpacked prefix's assets and GPU module, not the build tree")

    def check_trace(self):
        status, installed = self.app(self.binary, "trace")
        built_status, built = self.app(self.build_binary, "trace")
        check(status == 0 and built_status == 0 and "Result: C is correct" in installed,
              "the installed trace runs the default lesson to a correct C")
        check(installed == built, "the installed trace prints what the build tree's does")

    def check_gpu_lookup(self):
        # No device (hidden where there is one): bench says why in one line, exit 3. With
        # CUDA the packaged module must be the one opened; without, its absence is named.
        status, output = self.app(self.binary, "bench", "--sizes", "64", env={"CUDA_VISIBLE_DEVICES": ""})
        check(status == 3 and "no GPU to run on" in output, "bench without a GPU exits 3 and says why")
        if self.has_cuda:
            check("no GPU runner module" not in output, "the installed binary opens the packaged GPU module")
        else:
            check("no GPU runner module at " + self.module in output, "the missing module is named where it belongs")

    def check_gui(self):
        state_file = os.path.join(self.tmp, "state.json")
        command = XVFB + [self.binary, "--lesson", "default", "--frames", "5", "--screenshot", self.screenshot,
                          "--dump-state", state_file]
        if os.path.exists(self.screenshot):
            os.remove(self.screenshot)
        status, output = run(command, cwd=self.elsewhere, env=self.env, timeout=180)
        print(output)
        check(status == 0, "the installed GUI draws the default lesson and saves a screenshot")
        with open(state_file) as f:
            state = json.load(f)
        check(state["about"]["Assets"] == os.path.join(self.prefix, "share", "tilescope"),
              "About names the unpacked prefix's assets")
        check(state["builtin_font"] is False, "DejaVu from fonts-dejavu-core, not ImGui's fallback font")
        errors = [n["text"] for n in state["notifications"] if n["severity"] == "error"]
        check(not errors, "no error notifications %s" % errors)
        width, height, channels, rows = read_png(self.screenshot)
        colours = {rows[y][x * channels:x * channels + 3] for y in range(0, height, 7) for x in range(0, width, 7)}
        check(width == state["window"]["width"] and height == state["window"]["height"] and len(colours) > 20,
              "the screenshot is the whole window, drawn (%d colours sampled)" % len(colours))

    def check_desktop_entry(self):
        desktop = os.path.join(self.prefix, "share", "applications", "tilescope.desktop")
        status, output = run(["desktop-file-validate", desktop])
        print(output)
        check(status == 0 and not output.strip(), "desktop-file-validate accepts tilescope.desktop")
        with open(desktop) as f:
            entry = dict(line.strip().split("=", 1) for line in f if "=" in line)
        check(entry["Exec"].split()[0] == os.path.basename(self.binary), "Exec starts the installed binary")
        check(entry["Icon"] == "tilescope", "Icon is the packaged tilescope icon")
        icons = os.path.join(self.prefix, "share", "icons", "hicolor")
        for folder in sorted(os.listdir(icons)):
            if folder == "scalable":
                continue
            width, height, _, _ = read_png(os.path.join(icons, folder, "apps", "tilescope.png"))
            check(folder == "%dx%d" % (width, height), "the %s icon is %dx%d pixels" % (folder, width, height))

    def check_man_page(self):
        with gzip.open(os.path.join(self.prefix, "share", "man", "man1", "tilescope.1.gz"), "rt") as f:
            page = f.read()
        check('"tilescope %s"' % self.version in page and "\\-\\-screenshot" in page and "trace" in page,
              "the man page is tilescope --help of this version")

    def check_lintian(self):
        status, output = run(["lintian", "--fail-on", "error", self.deb], timeout=300)
        print(output)
        check(status == 0 and "E: " not in output, "lintian reports no errors")
        check("W: " not in output, "lintian reports no warnings")


def main():
    package = Package(sys.argv[1:8])
    try:
        package.build()
        package.check_control()
        package.check_contents()
        package.unpack()
        package.check_version()
        package.check_trace()
        package.check_gpu_lookup()
        package.check_gui()
        package.check_desktop_entry()
        package.check_man_page()
        package.check_lintian()
    finally:
        shutil.rmtree(package.tmp)
    print("PASS")


main()
