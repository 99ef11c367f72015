/* SPDX-License-Identifier: BSD-2-Clause */
// cpcflame.js - the script of cpcplot --flame's page, inlined after its
// settings (var FLAME, written by cpcflame.py).
//
// The frames' <rect>s are in samples (x: the samples before the frame,
// width: its own); the transform of their group, #frames, maps samples to
// pixels.  Zooming to a frame changes only that transform: the frame fills
// the width, its ancestors are clipped to it (and dimmed), the rest leaves
// the clip.  The labels (#labels, in pixels) are made again after each
// change of the view, from the frames' titles, which hold the function,
// the object and the samples.
//
// The page's address may ask for a view: ?s=RE searches, ?z=RE zooms to
// the widest frame that RE matches (as a click on it would; z= again
// clicks again, so ...&z=^all$ zooms back out), ?i=1 turns the picture
// over.
"use strict";
(function () {
	var F = FLAME, NS = "http://www.w3.org/2000/svg";
	var frames = [], root = null, zoomed = null, icicle = F.icicle;
	var group = byId("frames"), labels = byId("labels");

	function byId(id) { return document.getElementById(id); }

	function show(id, on) { byId(id).classList.toggle("off", !on); }

	function rowY(depth) {
		return F.top + (icicle ? depth : F.maxd - depth) * F.row;
	}

	// What a frame is: its rect, place in samples, depth and names.
	function frameOf(r) {
		var t = r.firstElementChild.textContent.split("\n");
		var y = (Number(r.getAttribute("y")) - F.top) / F.row;
		var f = {el: r, x: Number(r.getAttribute("x")),
		    w: Number(r.getAttribute("width")),
		    d: icicle ? y : F.maxd - y, fn: t[0],
		    obj: t.length > 2 ? t[1] : ""};
		f.text = f.obj ? f.obj + "`" + f.fn : f.fn;
		f.about = t.join(", ").replace(", ", f.obj ? " in " : ", ");
		return f;
	}

	function fit(name, px) {
		var n = Math.floor((px - 4) / F.chr);
		if (n < 3)
			return "";
		return name.length <= n ? name : name.slice(0, n - 2) + "..";
	}

	// The labels of the frames in view, where cpcflame.py puts them.
	function relabel() {
		var z = zoomed || root, s = F.span / z.w, end = z.x + z.w;
		var i, f, l, r, t, px;
		labels.textContent = "";
		for (i = 0; i < frames.length; i++) {
			f = frames[i];
			l = Math.max(f.x, z.x);
			r = Math.min(f.x + f.w, end);
			if (r <= l)
				continue;
			px = (r - l) * s;
			t = fit(f.fn, px);
			if (t === "")
				continue;
			var e = document.createElementNS(NS, "text");
			e.setAttribute("x", (F.pad + (l - z.x) * s + 2).toFixed(1));
			e.setAttribute("y", rowY(f.d) + F.row - 4);
			e.textContent = t;
			labels.appendChild(e);
		}
	}

	function zoom(f) {
		var i, a, s;
		zoomed = f === root ? null : f;
		f = zoomed || root;
		s = F.span / f.w;
		group.setAttribute("transform", "translate(" +
		    (F.pad - f.x * s) + ",0) scale(" + s + ",1)");
		for (i = 0; i < frames.length; i++) {
			a = frames[i];
			a.el.classList.toggle("anc", zoomed !== null &&
			    a.d < f.d && a.x <= f.x && a.x + a.w >= f.x + f.w);
		}
		show("unzoom", zoomed !== null);
		relabel();
	}

	function flip() {
		icicle = !icicle;
		for (var i = 0; i < frames.length; i++)
			frames[i].el.setAttribute("y", rowY(frames[i].d));
		relabel();
	}

	function pct(n) { return (100 * n / F.total).toFixed(2) + "%"; }

	// Highlight the frames whose object`function re matches; the samples
	// under them, each counted once (a match inside a match is not added).
	function search(re) {
		var rx, hits = [], i, f, n = 0, end = -1;
		try {
			rx = new RegExp(re);
		} catch (e) {
			byId("matched").textContent = "Bad expression: " + re;
			return;
		}
		for (i = 0; i < frames.length; i++) {
			f = frames[i];
			f.el.classList.toggle("hit", f !== root && rx.test(f.text));
			if (f !== root && rx.test(f.text))
				hits.push(f);
		}
		hits.sort(function (a, b) { return a.x - b.x || b.w - a.w; });
		for (i = 0; i < hits.length; i++)
			if (hits[i].x >= end) {
				n += hits[i].w;
				end = hits[i].x + hits[i].w;
			}
		byId("matched").textContent = "Matched " + re + ": " + n +
		    " samples, " + pct(n);
		show("clear", true);
	}

	function clear() {
		for (var i = 0; i < frames.length; i++)
			frames[i].el.classList.remove("hit");
		byId("matched").textContent = " ";
		show("clear", false);
	}

	function ask() {
		var re = window.prompt("Search: a regular expression, matched " +
		    "against object`function", "");
		if (re)
			search(re);
	}

	// The widest frame but the root that re matches, as ?z= asks; the
	// root when only it matches; none when re is not a regular
	// expression.
	function widest(re) {
		var rx, best = null, i;
		try {
			rx = new RegExp(re);
		} catch (e) {
			return null;
		}
		for (i = 0; i < frames.length; i++)
			if (frames[i] !== root && rx.test(frames[i].text) &&
			    (best === null || frames[i].w > best.w))
				best = frames[i];
		return best === null && rx.test(root.text) ? root : best;
	}

	function start() {
		var rs = group.getElementsByTagName("rect"), i, q, f;
		for (i = 0; i < rs.length; i++) {
			f = frameOf(rs[i]);
			f.el.addEventListener("click", zoom.bind(null, f));
			f.el.addEventListener("mouseover", function (f) {
				byId("status").textContent = f.about;
			}.bind(null, f));
			frames.push(f);
			if (f.d === 0)
				root = f;
		}
		byId("unzoom").addEventListener("click", function () {
			zoom(root);
		});
		byId("invert").addEventListener("click", flip);
		byId("search").addEventListener("click", ask);
		byId("clear").addEventListener("click", clear);
		window.addEventListener("keydown", function (e) {
			if ((e.ctrlKey || e.metaKey) && e.key === "f") {
				e.preventDefault();
				ask();
			} else if (e.key === "Escape") {
				zoom(root);
			}
		});
		q = new URLSearchParams(window.location.search);
		if (q.get("i") === "1")
			flip();
		q.getAll("z").forEach(function (re) {
			if ((f = widest(re)) !== null)
				f.el.dispatchEvent(new MouseEvent("click"));
		});
		if (q.get("s"))
			search(q.get("s"));
	}

	start();
})();
