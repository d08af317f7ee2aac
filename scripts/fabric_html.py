# SPDX-License-Identifier: BSD-2-Clause
"""scripts/fabric_html.py - a fabric report (scripts/fabric_report.py's
dict, results/schema/fabric-report-v1.schema.json) as one acceptance page:
report.html, self-contained (inline CSS, JS and SVG; nothing fetched).

In order: the verdict and its counts; the suspect nodes with the bad links
that make them suspects and why; the node x node matrix; a per-link table
(sortable: click a heading); the NCCL ranks; then every other section the
report carries (doctor findings per node, budgets...) rendered generically.

The colour scale is anchored on the gate (scale() below, shared with the
PNG/SVG heat map): a link below its gate, or failed, is drawn in reds
(darker the further below), never in the passing greens; a passing link
is green, darker towards the fastest; slow (below --slow-fraction x the
median but above its gate) is amber; an error purple, corrupt data black,
no link grey. Each cell and table row carries class and data-verdict
("pass", "fail", "slow", "error", "corrupt"): what a DOM check reads.

At 200+ nodes the matrix stays a fixed size on screen (cells of
max(2, 800 / nodes) px: 4 px at 200 nodes), zoomable (the buttons, or
ctrl + wheel) inside a scrolling frame; hovering a cell names the link,
and the bad links are outlined and listed (suspects, table sorted bad
first), so a failing link is found without reading 40000 cells.
"""
import collections
import html
import json

GREY, PURPLE, BLACK, AMBER = "#d9d9d9", "#7b3294", "#111111", "#f4a300"
RED_LO, RED_HI = (0x67, 0x00, 0x0d), (0xf0, 0x3b, 0x20)      # 0 .. just under the gate
GREEN_LO, GREEN_HI = (0xa6, 0xdb, 0xa0), (0x00, 0x6d, 0x2c)  # the gate .. the fastest


def link_gate(l):
    """The link's bandwidth gate (Gb/s): the highest expected of its Gb/s
    gates; None without one."""
    g = [x["expected"] for x in l.get("gates") or []
         if x.get("unit") == "Gb/s" and isinstance(x.get("expected"), (int, float))]
    return max(g) if g else None


def report_gate(rep):
    """The gate most links have (the legend's anchor); None without gates."""
    c = collections.Counter(g for g in map(link_gate, rep["links"]) if g is not None)
    return c.most_common(1)[0][0] if c else None


def top_of(rep):
    vals = [l["gbps"] for l in rep["links"] if l["gbps"] is not None]
    return max(vals + [report_gate(rep) or 0, 1e-9])


def mix(a, b, t):
    t = min(1.0, max(0.0, t))
    return "#%02x%02x%02x" % tuple(round(x + (y - x) * t) for x, y in zip(a, b))


def state(verdict, gbps, gate, slow):
    """pass, fail, slow, error, corrupt or none: below the gate is fail."""
    if verdict in ("error", "corrupt"):
        return verdict if gbps is not None or verdict == "corrupt" else "error"
    if gbps is None:
        return "none" if verdict == "pass" else "error"
    if verdict == "fail" or (gate is not None and gbps < gate):
        return "fail"
    return "slow" if slow else "pass"


def scale(gbps, st, gate, top):
    """A cell's colour: reds below the gate, greens from it to the top."""
    if st in ("none", "error", "corrupt"):
        return {"none": GREY, "error": PURPLE, "corrupt": BLACK}[st]
    if st == "slow":
        return AMBER
    if st == "fail":
        return mix(RED_LO, RED_HI, gbps / gate if gate else 0.5)
    lo = gate if gate is not None else 0.0
    return mix(GREEN_LO, GREEN_HI, (gbps - lo) / (top - lo) if top > lo else 1.0)


def link_state(l):
    return state(l["verdict"], l["gbps"], link_gate(l), l["slow"])


def esc(v):
    return html.escape("" if v is None else str(v), quote=True)


def num(v, d=2):
    return "-" if v is None else f"{v:.{d}f}"


CSS = """
body{font:14px/1.4 system-ui,sans-serif;margin:16px 24px;color:#222;max-width:1400px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 6px;border-bottom:1px solid #ccc}
.verdict{display:inline-block;padding:4px 14px;border-radius:4px;color:#fff;font-weight:700;
 font-size:18px;margin-right:10px}
.v-pass{background:#1a7f37}.v-fail{background:#b3001b}.v-error{background:#7b3294}
.v-corrupt{background:#111}.v-slow{background:#c77c00}
table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left}
th{background:#f3f3f3;cursor:pointer;white-space:nowrap}td.n{text-align:right;font-variant-numeric:tabular-nums}
tr.fail td,tr.error td,tr.corrupt td{background:#fde0e0}tr.slow td{background:#fff3d6}
#frame{overflow:auto;max-width:100%;max-height:82vh;border:1px solid #ccc;display:inline-block}
#tip{position:fixed;pointer-events:none;background:#222;color:#fff;padding:3px 6px;font-size:12px;
 border-radius:3px;display:none}
.legend{display:flex;align-items:center;gap:14px;flex-wrap:wrap;margin:6px 0}
.sw{display:inline-block;width:14px;height:14px;vertical-align:middle;border:1px solid #999}
.muted{color:#666}ul{margin:4px 0}
"""

JS_SORT = """
function sortBy(th){var tb=th.closest('table').tBodies[0],i=th.cellIndex,
 asc=th.dataset.asc!=='1';th.dataset.asc=asc?'1':'0';
 var rows=Array.prototype.slice.call(tb.rows);rows.sort(function(a,b){
 var x=a.cells[i].dataset.k||a.cells[i].textContent,y=b.cells[i].dataset.k||b.cells[i].textContent;
 var p=parseFloat(x),q=parseFloat(y);var c=(!isNaN(p)&&!isNaN(q))?p-q:x.localeCompare(y);
 return asc?c:-c;});rows.forEach(function(r){tb.appendChild(r);});}
"""

JS_LINKS = """
var L=JSON.parse(document.getElementById('links-data').textContent),shown=500,key=-1,asc=true;
var NODES=JSON.parse(document.getElementById('nodes-data').textContent);
function draw(){var tb=document.querySelector('#links tbody'),n=Math.min(shown,L.length),f=
 document.createDocumentFragment();for(var i=0;i<n;i++){var r=L[i],tr=document.createElement('tr');
 tr.className=r[7];tr.dataset.verdict=r[7];tr.dataset.link=r[1]+' -> '+r[2];
 for(var k=0;k<r.length;k++){var td=document.createElement('td'),v=r[k];
 if(typeof v==='number'||v===null){td.className='n';
 td.textContent=v===null?'-':(k>=4&&k<=6?v.toFixed(2):String(v));}else td.textContent=v;
 tr.appendChild(td);}f.appendChild(tr);}tb.textContent='';tb.appendChild(f);
 document.getElementById('more').style.display=n<L.length?'':'none';
 document.getElementById('count').textContent=n+' of '+L.length+' links shown';}
function sortLinks(k){asc=key===k?!asc:true;key=k;L.sort(function(a,b){var x=a[k],y=b[k],c;
 if(typeof x==='string'||typeof y==='string')c=String(x).localeCompare(String(y));
 else c=(x===null?-Infinity:x)-(y===null?-Infinity:y);return asc?c:-c;});draw();}
function zoom(f){var s=document.getElementById('matrix');var w=+s.getAttribute('width')*f;
 if(w<200||w>40000)return;s.setAttribute('width',w);s.setAttribute('height',+s.getAttribute('height')*f);}
document.getElementById('frame').addEventListener('wheel',function(e){if(!e.ctrlKey)return;
 e.preventDefault();zoom(e.deltaY<0?1.25:0.8);},{passive:false});
var tip=document.getElementById('tip');
document.querySelectorAll('svg.matrix').forEach(function(m){m.addEventListener('mousemove',function(e){
 var t=e.target;if(!t.classList.contains('cell')){tip.style.display='none';return;}
 var c=+m.dataset.cell,b=+m.dataset.lab,i=(+t.getAttribute('y')-b)/c,j=(+t.getAttribute('x')-b)/c;
 tip.textContent=NODES[i]+' -> '+NODES[j]+': '+t.dataset.g+' Gb/s, '+t.classList[1];
 tip.style.left=(e.clientX+12)+'px';tip.style.top=(e.clientY+12)+'px';tip.style.display='block';});});
draw();
"""


def head_section(rep, title):
    links = rep["links"]
    c = collections.Counter(link_state(l) for l in links)
    gate = report_gate(rep)
    v = rep["verdict"]
    out = [f"<h1>{esc(title)}</h1>",
           f'<p id="summary" data-verdict="{esc(v)}"><span class="verdict v-{esc(v)}">'
           f'{esc(v.upper())}</span> exit {rep["exit_code"]}: '
           + ", ".join(f"{c[k]} {k}" for k in ("pass", "fail", "slow", "error", "corrupt")
                       if c[k]) + f" of {len(links)} links"
           + (f"; NCCL {esc(rep['nccl']['verdict'])}" if rep.get("nccl") else "") + "</p>"]
    if links:
        out.append(f'<p class="muted">{esc(rep["pattern"])} over {len(rep["nodes"])} nodes x '
                   f'{rep["streams"]} stream(s), {rep["rounds"]} round(s), {esc(rep["tool"])}; '
                   f'median {num(rep["median_gbps"])} Gb/s; gate '
                   f'{num(gate) + " Gb/s" if gate is not None else "none"}</p>')
    return out


def suspects_section(rep):
    bad = [l for l in rep["links"] if link_state(l) not in ("pass", "none")]
    out = ["<h2>Suspects</h2>"]
    if not rep["suspects"]:
        out.append('<p class="muted">no suspect node' +
                   (f"; {len(bad)} bad link(s): see the table" if bad else "") + "</p>")
    for s in rep["suspects"]:
        mine = [l for l in bad if s["node"] in (l["client"], l["server"])]
        out.append(f'<p class="suspect" data-node="{esc(s["node"])}"><b>{esc(s["node"])}</b> '
                   f'is in {s["bad_links"]} of {s["of"]} bad links</p><ul>')
        out += [f"<li>{esc(l['client'])} &rarr; {esc(l['server'])} s{l['stream']}: "
                f"{num(l['gbps'])} Gb/s: {esc(reason(l))}</li>" for l in mine[:20]]
        out.append("</ul>")
    if rep["weakest"]:
        out.append("<p>weakest: " + "; ".join(
            f"{esc(w['client'])} &rarr; {esc(w['server'])} s{w['stream']} {num(w['gbps'])} Gb/s "
            f"({esc(w['why'])})" for w in rep["weakest"]) + "</p>")
    return out


def reason(l):
    if l["verdict"] != "pass":
        return l.get("error") or l["verdict"]
    gate = link_gate(l)
    if gate is not None and l["gbps"] is not None and l["gbps"] < gate:
        return f"{l['gbps']:.2f} Gb/s < the gate {gate:.2f} Gb/s"
    return "slow: below the median's fraction" if l["slow"] else ""


def legend(gate, top):
    items = [(RED_LO, "far below the gate"), (RED_HI, "just below the gate"),
             (GREEN_LO, f"at the gate ({num(gate)} Gb/s)" if gate is not None else "slowest"),
             (GREEN_HI, f"fastest ({num(top)} Gb/s)")]
    out = [f'<span><span class="sw" style="background:{mix(c, c, 0)}"></span> {esc(t)}</span>'
           for c, t in items]  # mix(c, c, 0): c as #rrggbb
    out += [f'<span><span class="sw" style="background:{c}"></span> {t}</span>'
            for c, t in ((AMBER, "slow"), (PURPLE, "error"), (BLACK, "corrupt"),
                         (GREY, "no link"))]
    return '<div class="legend">' + "".join(out) + "</div>"


def cells(rep, rail=None):
    """[(client index, server index, link, gbps, state)] of the matrix:
    streams summed into one cell (its worst state)."""
    idx = {n: i for i, n in enumerate(rep["nodes"])}
    rank = {"none": 0, "pass": 1, "slow": 2, "fail": 3, "error": 4, "corrupt": 5}
    out = {}
    for l in rep["links"]:
        if rail is None:
            g, st = l["gbps"], link_state(l)
        else:
            r = (l.get("rails") or [])[rail:rail + 1]
            if not r:
                continue
            g, st = r[0]["gbps"], state(r[0]["verdict"], r[0]["gbps"], None, False)
        k = (idx[l["client"]], idx[l["server"]])
        if k in out:
            pg, pst = out[k][2], out[k][3]
            g = None if g is None or pg is None else g + pg
            st = max(st, pst, key=rank.get)
        out[k] = (l, k, g, st)
    return list(out.values())


def matrix_svg(rep, rail=None, ident="matrix"):
    nodes = rep["nodes"]
    n = max(1, len(nodes))
    cell = max(2, min(56, 800 // n))
    lab = 110
    size = lab + n * cell + 40  # room for the last column's slanted label
    gate, top = report_gate(rep), top_of(rep)
    every = 1 if cell >= 10 else -(-n // 40)
    out = [f'<svg id="{ident}" class="matrix" xmlns="http://www.w3.org/2000/svg" width="{size}" '
           f'height="{size}" viewBox="0 0 {size} {size}" data-nodes="{len(nodes)}" '
           f'data-cell="{cell}" data-lab="{lab}">',
           f'<rect x="{lab}" y="{lab}" width="{n * cell}" height="{n * cell}" fill="#f7f7f7"/>']
    fs = min(11, max(6, cell * 0.8)) if every == 1 else 8
    for i, name in enumerate(nodes):
        if i % every:
            continue
        c = lab + i * cell + cell / 2
        out.append(f'<text x="{lab - 3}" y="{c}" font-size="{fs}" text-anchor="end" '
                   f'dominant-baseline="middle">{esc(name[-16:])}</text>')
        out.append(f'<text transform="translate({c},{lab - 3}) rotate(-60)" font-size="{fs}">'
                   f'{esc(name[-16:])}</text>')
    marks = []
    for l, (i, j), g, st in cells(rep, rail):
        gl = link_gate(l) if rail is None else None
        colour = scale(g, st, gl if gl is not None else gate, top)
        # 40000 cells at 200 nodes: a passing one carries only its figure
        extra = "" if st == "pass" else (
            f' data-verdict="{st}" data-link="{esc(l["client"])} -&gt; {esc(l["server"])}"'
            f' stroke="#000" stroke-width="{min(3, max(0.5, cell / 6)):g}"')
        out.append(f'<rect class="cell {st}" x="{lab + j * cell}" y="{lab + i * cell}" '
                   f'width="{cell}" height="{cell}" fill="{colour}" data-g="{num(g)}"{extra}/>')
        if cell >= 44 and g is not None:
            out.append(f'<text x="{lab + (j + .5) * cell:g}" y="{lab + (i + .5) * cell:g}" '
                       f'font-size="11" text-anchor="middle" dominant-baseline="middle" '
                       f'pointer-events="none">{num(g)}</text>')
        if st != "pass" and cell < 10:
            # a 4 px cell is easy to miss: a ring around each bad one,
            # drawn over every cell
            marks.append(f'<circle class="mark" cx="{lab + (j + .5) * cell:g}" '
                       f'cy="{lab + (i + .5) * cell:g}" r="{5 * cell}" fill="none" '
                       f'stroke="#e0007a" stroke-width="2" pointer-events="none"/>')
    return "\n".join(out + marks + ["</svg>"])


def matrix_section(rep):
    if not rep["links"]:
        return []
    out = ["<h2>Matrix</h2>",
           '<p class="muted">client row &rarr; server column, Gb/s of all streams (and rails) '
           'summed; bad links outlined (and ringed when cells are small). Hover a cell for '
           'its link; zoom with the buttons or '
           'ctrl + wheel.</p>', legend(report_gate(rep), top_of(rep)),
           '<p><button onclick="zoom(1.5)">zoom in</button> <button onclick="zoom(1/1.5)">'
           'zoom out</button></p><div id="frame">', matrix_svg(rep), "</div>"]
    for r in (rep["matrix"].get("rails") or []):
        out += [f"<h2>Rail {r['rail']} ({esc(', '.join(r['devices']) or '?')})</h2>",
                matrix_svg(rep, r["rail"], f"rail{r['rail']}")]
    return out


def table(cols, rows, ident):
    """cols [(heading, numeric)]; rows [(state or "", [cells])]."""
    out = [f'<table id="{ident}"><thead><tr>' +
           "".join(f'<th onclick="sortBy(this)">{esc(h)}</th>' for h, _ in cols) +
           "</tr></thead><tbody>"]
    for st, vals in rows:
        attr = f' class="{esc(st)}" data-verdict="{esc(st)}"' if st else ""
        out.append(f"<tr{attr}>" + "".join(
            f'<td class="n" data-k="{esc(v)}">{esc(v if isinstance(v, int) else num(v))}</td>'
            if numeric else f"<td>{esc(v)}</td>" for (_, numeric), v in zip(cols, vals)) + "</tr>")
    return out + ["</tbody></table>"]


def script_json(v):
    """v as JSON inside a <script> element: "</" never closes it."""
    return json.dumps(v, separators=(",", ":")).replace("</", "<\\/")


def links_section(rep):
    """The per-link table: its rows in the page as JSON, drawn by the
    script 500 at a time (40000 rows of a 200-node all-to-all would be
    10 MB of markup), bad links first; a heading click sorts them all."""
    if not rep["links"]:
        return []
    order = {"corrupt": 0, "error": 1, "fail": 2, "slow": 3, "none": 4, "pass": 5}
    rows = []
    for l in sorted(rep["links"], key=lambda l: (order[link_state(l)], l["gbps"] or 0)):
        g = link_gate(l)
        pct = round(100.0 * l["gbps"] / g, 2) if g and l["gbps"] is not None else None
        rows.append([l["round"], l["client"], l["server"], l["stream"], l["gbps"], g, pct,
                     link_state(l), reason(l)])
    heads = ["round", "client", "server", "stream", "Gb/s", "gate Gb/s", "% of gate", "verdict",
             "why"]
    return ["<h2>Links</h2>", '<p class="muted">bad links first; click a heading to sort; '
            '<span id="count"></span> <button id="more" onclick="shown+=500;draw()">show more'
            '</button></p>',
            '<table id="links"><thead><tr>' + "".join(
                f'<th onclick="sortLinks({k})">{esc(h)}</th>' for k, h in enumerate(heads)) +
            "</tr></thead><tbody></tbody></table>",
            f'<script type="application/json" id="links-data">{script_json(rows)}</script>',
            '<noscript><p>the table needs JavaScript; fabric.txt has every link</p></noscript>']


def nccl_section(n):
    if not n:
        return []
    rows = [("pass" if r["verdict"] == "pass" else r["verdict"],
             [r["rank"], r["node"], r["busbw_gbps"], r["expect_busbw_gbps"], r["net"] or "-",
              r["nccl_verdict"], r["reason"] or ""]) for r in n["ranks"]]
    cols = [("rank", True), ("node", False), ("busbw GB/s", True), ("expected GB/s", True),
            ("NCCL net", False), ("verdict", False), ("why", False)]
    return [f"<h2>NCCL: {esc(n['test'])} ({esc(n['verdict'])})</h2>"] + table(cols, rows, "nccl")


KNOWN = {"fabric_report_version", "pattern", "tool", "streams", "rounds", "nodes", "links",
         "matrix", "median_gbps", "weakest", "suspects", "verdict", "exit_code", "nccl"}


def generic(v, depth=0):
    """Any JSON value as HTML: a list of objects as a table, an object as
    a list of its keys, a scalar as text."""
    if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        keys = list(dict.fromkeys(k for x in v for k in x))
        rows = []
        for x in v:
            st = str(x.get("status") or x.get("verdict") or x.get("severity") or "")
            st = {"ok": "pass", "passed": "pass", "warn": "slow", "fail": "fail",
                  "error": "error"}.get(st, "")
            rows.append((st, [json.dumps(x[k]) if isinstance(x.get(k), (dict, list))
                              else x.get(k, "") for k in keys]))
        return "\n".join(table([(k, False) for k in keys], rows, f"t{id(v)}"))
    if isinstance(v, dict):
        return "<ul>" + "".join(f"<li><b>{esc(k)}</b>: {generic(x, depth + 1)}</li>"
                                for k, x in v.items()) + "</ul>"
    if isinstance(v, list):
        return esc(", ".join(json.dumps(x) if isinstance(x, (dict, list)) else str(x) for x in v))
    return esc(v)


def other_sections(rep):
    out = []
    for k in rep:
        if k not in KNOWN:
            out += [f'<h2 id="sec-{esc(k)}">{esc(k.replace("_", " "))}</h2>', generic(rep[k])]
    return out


def render(rep, title=None):
    """The page, a str."""
    title = title or f"rdmabench fabric: {rep['pattern'] or 'nccl-tests'}"
    body = (head_section(rep, title) + suspects_section(rep) + matrix_section(rep)
            + links_section(rep) + nccl_section(rep.get("nccl")) + other_sections(rep))
    return ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{esc(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + '\n<div id="tip"></div>\n'
            + f'<script type="application/json" id="nodes-data">{script_json(rep["nodes"])}'
            + "</script>\n"
            + f"<script>{JS_SORT + (JS_LINKS if rep['links'] else '')}</script>"
            + "</body></html>\n")


def colormap_stops(gate, top):
    """[(fraction of top, (r, g, b) 0..1)] of the heat map's colour bar:
    reds up to just under the gate, greens from it (matplotlib's
    LinearSegmentedColormap.from_list takes them)."""
    f = min(1.0, gate / top) if gate else 0.0
    c = [tuple(x / 255 for x in rgb) for rgb in (RED_LO, RED_HI, GREEN_LO, GREEN_HI)]
    if f <= 0:
        return [(0.0, c[2]), (1.0, c[3])]
    if f >= 1:
        return [(0.0, c[0]), (1.0, c[1])]
    return [(0.0, c[0]), (max(0.0, f - 1e-6), c[1]), (f, c[2]), (1.0, c[3])]
