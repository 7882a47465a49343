# LayerKit: build, install, test and demo.
#
#   make demo                      installs what it needs, builds, renders out/demo*.png
#   make test                      installs what it needs, builds, runs every test
#   make install PREFIX=/usr/local [DESTDIR=/staging]
#
# SCRATCH names SwiftPM's build folder, so that two builds can run side by
# side (make build SCRATCH=.build-mine); `swift test` uses $(SCRATCH)-test so
# the debug test build never fights the release build.

PREFIX  ?= /usr/local
DESTDIR ?=
SCRATCH ?= .build
SWIFT   ?= swift
CC      ?= cc
CXX     ?= c++

# The Swift toolchain is not a Debian package; on this project's machines it
# lives in /opt/swift. Use it when swift is not on PATH already.
ifeq ($(shell command -v $(SWIFT) 2>/dev/null),)
  ifneq ($(wildcard /opt/swift/usr/bin/swift),)
    export PATH := $(PATH):/opt/swift/usr/bin
  endif
endif

# Debian packages the build, the tests and the demo need (README says why each).
DEB_PACKAGES := pkg-config libpng-dev zlib1g-dev libpixman-1-dev libcairo2-dev libpango1.0-dev libdrm-dev libgbm-dev \
                fonts-dejavu-core fonts-lohit-deva \
                gcc g++ make binutils python3 util-linux valgrind \
                libegl-dev libgles-dev libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri
# What the KMS tests need on top (a kernel to boot under qemu, the source
# vkms is built from, busybox for the VM): about 260 MB, installed by
# `make test` and `make test-kms`, not by `make demo`.
KMS_DEB_PACKAGES := qemu-system-x86 linux-image-amd64 linux-headers-amd64 linux-source-6.1 \
                    busybox-static cpio kmod xz-utils

VERSION := $(shell sed -n 's/.*define LK_VERSION_STRING "\(.*\)".*/\1/p' include/layerkit/layerkit.h)
SOVERSION := $(firstword $(subst ., ,$(VERSION)))
LIBDIR := $(PREFIX)/lib
INCLUDEDIR := $(PREFIX)/include
BACKENDDIR := $(LIBDIR)/layerkit/backends

# SwiftPM compiles C with $CC when it is set, and wants clang (its own): a CC
# meant for the tests and examples (gcc, say) must not reach it.
SWIFT_BUILD := env -u CC -u CXX $(SWIFT) build -c release -Xswiftc -static-stdlib --scratch-path $(SCRATCH)
TEST_PREFIX := $(CURDIR)/build/test-prefix
DEMO_PREFIX := $(CURDIR)/build/demo-prefix
BENCH_PREFIX := $(CURDIR)/build/bench-prefix

.PHONY: all deps deps-kms build install uninstall test test-kms demo bench bench-smoke clean check-swift

all: build

# Installs only what is missing, so a second run asks apt nothing.
define install_missing
	@missing=""; \
	for p in $(1); do \
	    dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then \
	    echo "$(2): every Debian package needed is installed"; \
	else \
	    sudo=""; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	    echo "$(2): installing$$missing"; \
	    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
	    $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(DEB_PACKAGES),deps)

deps-kms:
	$(call install_missing,$(KMS_DEB_PACKAGES),deps-kms)

check-swift:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
	    echo "error: no Swift toolchain: put Swift 6.3's usr/bin on PATH (it is looked for in /opt/swift too)" >&2; \
	    exit 1; }

# The software backend is C: its objects are relinked with cc (see
# scripts/link-c-plugin.sh) so that it carries no Swift runtime; set
# PLUGIN_LINK=swiftpm to install SwiftPM's own link instead.
PLUGIN_LINK ?= cc
PLUGIN_DIR := $(SCRATCH)/layerkit-plugins

# The backend plugins built and installed (each Plugins/<Name>, product
# layerkit-<name>), each relinked from SwiftPM's objects (see PLUGIN_LINK above).
PLUGINS := software gles drm

build: check-swift
	$(SWIFT_BUILD) --product layerkit
	@set -e; for p in $(PLUGINS); do $(SWIFT_BUILD) --product layerkit-$$p; done
	$(SWIFT_BUILD) --product lk-info
	@set -e; bin=$$($(SWIFT_BUILD) --show-bin-path); \
	for p in $(PLUGINS); do \
	    if [ "$(PLUGIN_LINK)" = swiftpm ]; then \
	        install -D -m 755 "$$bin/liblayerkit-$$p.so" "$(PLUGIN_DIR)/liblayerkit-$$p.so"; \
	    else \
	        echo "relinking liblayerkit-$$p.so with $(CC) (no Swift runtime inside)"; \
	        CC="$(CC)" scripts/link-c-plugin.sh "$$bin/liblayerkit-$$p.so" \
	            "$$bin/layerkit-$$p.product/Objects.LinkFileList" Plugins/plugin.map \
	            "$(PLUGIN_DIR)/liblayerkit-$$p.so"; \
	    fi; \
	done

# The installed tree is relocatable: the core finds its backends beside
# liblayerkit.so (dladdr), so a prefix can be moved as a whole.
install: build
	@set -e; \
	bin=$$($(SWIFT_BUILD) --show-bin-path); \
	lib="$(DESTDIR)$(LIBDIR)"; \
	install -d "$$lib" "$(DESTDIR)$(BACKENDDIR)" "$(DESTDIR)$(INCLUDEDIR)/layerkit" "$$lib/pkgconfig"; \
	install -m 755 "$$bin/liblayerkit.so" "$$lib/liblayerkit.so.$(VERSION)"; \
	strip --strip-unneeded "$$lib/liblayerkit.so.$(VERSION)"; \
	ln -sfn "liblayerkit.so.$(VERSION)" "$$lib/liblayerkit.so.$(SOVERSION)"; \
	ln -sfn "liblayerkit.so.$(SOVERSION)" "$$lib/liblayerkit.so"; \
	for p in $(PLUGINS); do \
	    install -m 755 "$(PLUGIN_DIR)/liblayerkit-$$p.so" "$(DESTDIR)$(BACKENDDIR)/liblayerkit-$$p.so"; \
	    strip --strip-unneeded "$(DESTDIR)$(BACKENDDIR)/liblayerkit-$$p.so"; \
	done; \
	install -d "$(DESTDIR)$(PREFIX)/bin"; \
	install -m 755 "$$bin/lk-info" "$(DESTDIR)$(PREFIX)/bin/lk-info"; \
	strip --strip-unneeded "$(DESTDIR)$(PREFIX)/bin/lk-info"; \
	install -m 644 include/layerkit/layerkit.h include/layerkit/layerkit_backend.h "$(DESTDIR)$(INCLUDEDIR)/layerkit/"; \
	install -D -m 644 share/layerkit/valgrind.supp "$(DESTDIR)$(PREFIX)/share/layerkit/valgrind.supp"; \
	private=$$(scripts/libs-private.sh "$$lib/liblayerkit.so.$(VERSION)"); \
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' -e "s|@LIBS_PRIVATE@|$$private|g" \
	    pkgconfig/layerkit.pc.in >"$$lib/pkgconfig/layerkit.pc"; \
	chmod 644 "$$lib/pkgconfig/layerkit.pc"; \
	if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ] && command -v ldconfig >/dev/null; then ldconfig || true; fi; \
	echo "installed LayerKit $(VERSION) into $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f "$(DESTDIR)$(LIBDIR)/liblayerkit.so.$(VERSION)" "$(DESTDIR)$(LIBDIR)/liblayerkit.so.$(SOVERSION)" \
	      "$(DESTDIR)$(LIBDIR)/liblayerkit.so" $(PLUGINS:%="$(DESTDIR)$(BACKENDDIR)/liblayerkit-%.so") \
	      "$(DESTDIR)$(PREFIX)/bin/lk-info" \
	      "$(DESTDIR)$(INCLUDEDIR)/layerkit/layerkit.h" "$(DESTDIR)$(INCLUDEDIR)/layerkit/layerkit_backend.h" \
	      "$(DESTDIR)$(LIBDIR)/pkgconfig/layerkit.pc" "$(DESTDIR)$(PREFIX)/share/layerkit/valgrind.supp"
	-rmdir "$(DESTDIR)$(BACKENDDIR)" "$(DESTDIR)$(LIBDIR)/layerkit" "$(DESTDIR)$(INCLUDEDIR)/layerkit" \
	    "$(DESTDIR)$(PREFIX)/share/layerkit" 2>/dev/null

# Core unit tests (swift test), then every C-level check against a fresh
# install in build/test-prefix; the last line is `N passed, N failed`.
test: deps deps-kms build
	@rm -rf "$(TEST_PREFIX)"
	@$(MAKE) --no-print-directory install PREFIX="$(TEST_PREFIX)" DESTDIR=
	@SWIFT="$(SWIFT)" SWIFT_TEST_SCRATCH="$(SCRATCH)-test" SCRATCH="$(SCRATCH)" CC="$(CC)" CXX="$(CXX)" \
	    scripts/run-tests.sh "$(TEST_PREFIX)"

# The KMS tests alone: the installed library and plugins in a VM on vkms
# (Tests/KMS/run.sh; the built vkms module is kept in build/kms).
test-kms: deps deps-kms build
	@rm -rf "$(TEST_PREFIX)"
	@$(MAKE) --no-print-directory install PREFIX="$(TEST_PREFIX)" DESTDIR=
	@CC="$(CC)" CXX="$(CXX)" Tests/KMS/run.sh "$(TEST_PREFIX)"

demo: deps build
	@rm -rf "$(DEMO_PREFIX)"
	@$(MAKE) --no-print-directory install PREFIX="$(DEMO_PREFIX)" DESTDIR=
	@CC="$(CC)" CXX="$(CXX)" scripts/demo.sh "$(DEMO_PREFIX)" out

bench-smoke: deps build
	@rm -rf "$(BENCH_PREFIX)"
	@$(MAKE) --no-print-directory install PREFIX="$(BENCH_PREFIX)" DESTDIR=
	@SWIFT="$(SWIFT)" SCRATCH="$(SCRATCH)" CC="$(CC)" scripts/bench.sh "$(BENCH_PREFIX)" --smoke

bench: deps build
	@rm -rf "$(BENCH_PREFIX)"
	@$(MAKE) --no-print-directory install PREFIX="$(BENCH_PREFIX)" DESTDIR=
	@SWIFT="$(SWIFT)" SCRATCH="$(SCRATCH)" CC="$(CC)" scripts/bench.sh "$(BENCH_PREFIX)"

clean:
	rm -rf "$(SCRATCH)" "$(SCRATCH)-test" build out
