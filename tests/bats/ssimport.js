/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ssimport.js - load a file into speedscope the way its command does
 * (the page's #localProfilePath= names a script that hands the file
 * over), then press its Export button and leave what it exports in
 * <pre id="export"> (or the reason it could not in <pre id="error">) for
 * Chromium's --dump-dom.  The page (callgraph.bats writes it) loads this
 * script, then speedscope's release build.
 */
var exported = null;
var realURL = URL.createObjectURL.bind(URL);
/* Export saves through a link to a blob: keep the blob, follow no link. */
URL.createObjectURL = function (b) { exported = b; return realURL(b); };
HTMLAnchorElement.prototype.click = function () {};
var tries = 0;

function show(text, id) {
	var pre = document.createElement('pre');

	pre.id = id;
	pre.textContent = text;
	document.body.appendChild(pre);
}

/* Once a profile is in (its name in the title), export it. */
function exportNow() {
	var b;

	if (!/ - speedscope$/.test(document.title)) {
		if (++tries < 200)
			setTimeout(exportNow, 50);
		else
			show('no profile loaded: ' + document.body.innerText, 'error');
		return;
	}
	b = Array.from(document.querySelectorAll('div')).filter(function (d) {
		return d.querySelector('div') === null &&
		    /Export$/.test(d.textContent);
	});
	if (b.length !== 1) {
		show('not one Export button but ' + b.length, 'error');
		return;
	}
	b[0].click();
	if (exported === null) {
		show('Export saved nothing', 'error');
		return;
	}
	exported.text().then(function (t) { show(t, 'export'); });
}
setTimeout(exportNow, 50);
