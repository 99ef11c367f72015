# SPDX-License-Identifier: BSD-2-Clause
# packaging.mk - included by the Makefile: what `make install` adds for
# packagers and for scripts written for Solaris, and the targets that
# undo, ship and package an install.
#
#   make install    also: /usr/sbin/cpustat (Solaris scripts call it
#                   there) as a link to $(bindir)/cpustat, and the bash
#                   completion of both tools
#   make uninstall  remove exactly the files `make install` puts, with the
#                   same DESTDIR, prefix and directories
#   make dist       $(DISTDIR)/cpc-tools-VERSION.tar.gz: the files git
#                   tracks, under cpc-tools-VERSION/, reproducibly
#   make deb        the Debian packages cpc-tools, libcpc1, libpctx1 and
#                   libcpc-dev, built by dpkg-buildpackage -b from that
#                   tarball unpacked in $(DEB_B), then checked by
#                   tests/deb

sbindir		?= $(exec_prefix)/sbin
# Where bash-completion loads a command's completion from, by its name.
bashcompdir	?= $(datarootdir)/bash-completion/completions
DISTDIR		?= .
DIST_NAME	= cpc-tools-$(VERSION)
DIST_TAR	= $(DISTDIR)/$(DIST_NAME).tar.gz
DEB_B		?= $(B)/deb

.PHONY: install-sbin install-completion uninstall dist deb

install: install-sbin install-completion

# A relative link, so that it holds in a DESTDIR staging and a package.
install-sbin:
	install -d $(DESTDIR)$(sbindir)
	ln -sf $$(realpath -m --relative-to=$(sbindir) $(bindir)/cpustat) \
	    $(DESTDIR)$(sbindir)/cpustat

install-completion:
	install -d $(DESTDIR)$(bashcompdir)
	install -m 644 completion/cpc-tools.bash $(DESTDIR)$(bashcompdir)/cpustat
	install -m 644 completion/cpc-tools.bash \
	    $(DESTDIR)$(bashcompdir)/cputrack

# What install puts is learnt by installing into a scratch directory, so
# the list is never written twice.  Directories stay (they may be
# shared), except the package's own (named cpc-tools) once empty.
uninstall:
	@stage=$$(mktemp -d) && trap 'rm -rf "$$stage"' EXIT && \
	$(MAKE) -s install DESTDIR="$$stage" >/dev/null && \
	(cd "$$stage" && find . ! -type d | sed 's|^\.||' | sort) | \
	while IFS= read -r f; do \
		echo "rm -f $(DESTDIR)$$f"; \
		rm -f "$(DESTDIR)$$f" || exit 1; \
	done && \
	(cd "$$stage" && find . -depth -type d -name 'cpc-tools*' | \
	    sed 's|^\.||') | \
	while IFS= read -r d; do \
		rmdir "$(DESTDIR)$$d" 2>/dev/null || :; \
	done

# The tree as git has it (tracked files, as they are in the worktree):
# names, owners and times fixed, so the same tree gives the same bytes.
dist:
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
	    { echo "make dist: needs a git checkout" >&2; exit 1; }
	@mkdir -p $(DISTDIR)
	git ls-files -z | tar --null -T - --sort=name --owner=0 --group=0 \
	    --numeric-owner --mtime=@$$(git log -1 --format=%ct) \
	    --transform='s|^|$(DIST_NAME)/|' -cf - | gzip -n -9 \
	    >$(DIST_TAR).tmp
	mv $(DIST_TAR).tmp $(DIST_TAR)
	@echo "$(DIST_TAR)"

# Out of the tree: dpkg-buildpackage cleans (make distclean) where it
# builds.  Without this make's flags and the variables that change where
# or how the tree builds (make exports those given on its command line):
# the packages are built as debian/rules says.  tests/deb checks the
# packages' contents and control fields, and the unit.
NOMAKEENV	= env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u B -u CONFIG -u SAN \
		  -u FUZZ
deb:
	rm -rf $(DEB_B)
	$(MAKE) dist DISTDIR=$(DEB_B)
	tar -xzf $(DEB_B)/$(DIST_NAME).tar.gz -C $(DEB_B)
	cd $(DEB_B)/$(DIST_NAME) && $(NOMAKEENV) dpkg-buildpackage -b -us -uc
	$(NOMAKEENV) tests/deb $(DEB_B) $(VERSION)
