#!/usr/bin/env bash
# The HTML chart in a real browser (headless Chromium): the page loads with no console error and
# no network request, hovering a point shows its numbers, a legend click hides and shows a topic
# and a memory level, and the search box filters kernels. Exit 77 (skipped) without Chromium.
# Usage: html_chart_chromium.sh ROOFLINE_CUDA RUN.json WORK_DIR
set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true
tool="$1" run="$2" work="$3"
# ROOFKIT_CHROMIUM names the browser to use (a path that does not exist: behave as without one).
browser=""
if [ -n "${ROOFKIT_CHROMIUM:-}" ]; then
  [ -x "$ROOFKIT_CHROMIUM" ] && browser="$ROOFKIT_CHROMIUM"
else
  for b in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$b" >/dev/null 2>&1; then browser="$(command -v "$b")"; break; fi
  done
fi
if [ -z "$browser" ]; then
  echo "SKIPPED: no Chromium found (Debian: apt-get install chromium)"
  exit 77
fi
rm -rf "$work" && mkdir -p "$work"
"$tool" plot "$run" -o "$work/chart.html"
page="$(<"$work/chart.html")"

# Before the page's own script: collect errors and console.error calls.
capture='<script>window.__errs=[];window.addEventListener("error",function(e){__errs.push(String(e.message))});
var __ce=console.error;console.error=function(){__errs.push(Array.prototype.join.call(arguments," "));__ce.apply(console,arguments)};</script>'
# After it: drive the page as a user would and write what happened into the DOM.
probe='<script>(function(){var o={};try{
function vis(e){for(;e&&e.nodeType===1;e=e.parentNode){if(getComputedStyle(e).display==="none")return false}return true}
var kernels=[].slice.call(document.querySelectorAll("g.kernel"));o.kernels=kernels.length;
var pt=document.querySelector("g.kernel path.point[data-tip]");var r=pt.getBoundingClientRect();
pt.dispatchEvent(new MouseEvent("mouseover",{bubbles:true,clientX:r.x+2,clientY:r.y+2}));
var tip=document.getElementById("tip");o.tipShown=vis(tip)&&tip.offsetWidth>0;o.tip=tip.textContent;
o.tipKernel=pt.parentNode.getAttribute("data-name");
pt.dispatchEvent(new MouseEvent("mouseout",{bubbles:true}));o.tipHidden=!vis(tip);
var topic=kernels[0].getAttribute("data-topic");o.topic=topic;
var entry=document.querySelector(".legend-topic.toggle[data-topic=\""+topic+"\"]");
entry.dispatchEvent(new MouseEvent("click",{bubbles:true}));
o.topicHidden=kernels.filter(function(g){return g.getAttribute("data-topic")===topic}).every(function(g){return !vis(g)});
o.othersShown=kernels.filter(function(g){return g.getAttribute("data-topic")!==topic}).every(vis);
entry.dispatchEvent(new MouseEvent("click",{bubbles:true}));o.topicBack=kernels.every(vis);
var lv=document.querySelector(".legend-level.toggle[data-level=\"dram\"]");
lv.dispatchEvent(new MouseEvent("click",{bubbles:true}));
var pts=[].slice.call(document.querySelectorAll("g.kernel path.point"));
o.levelHidden=pts.filter(function(p){return p.getAttribute("data-level")==="dram"}).every(function(p){return !vis(p)});
o.levelOthers=pts.filter(function(p){return p.getAttribute("data-level")!=="dram"}).every(vis);
lv.dispatchEvent(new MouseEvent("click",{bubbles:true}));
var s=document.getElementById("search");s.value="gemm";s.dispatchEvent(new Event("input",{bubbles:true}));
var shown=kernels.filter(vis);o.searchShown=shown.length;
o.searchMatch=shown.every(function(g){return /gemm/i.test(g.getAttribute("data-name"))});
o.rowsShown=[].slice.call(document.querySelectorAll("#kernels tbody tr")).filter(vis).length;
s.value="";s.dispatchEvent(new Event("input",{bubbles:true}));o.searchCleared=kernels.every(vis);
o.requests=performance.getEntriesByType("resource").length;
}catch(e){o.exception=String(e)}o.errors=window.__errs;
var pre=document.createElement("pre");pre.id="probe";pre.textContent="PROBE "+JSON.stringify(o)+" END";document.body.appendChild(pre)})();</script>'
page="${page/<head>/<head>$capture}"
page="${page/<\/body>/$probe</body>}"
printf '%s\n' "$page" > "$work/probe.html"

dom="$(timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
  --user-data-dir="$work/profile" --host-resolver-rules='MAP * ~NOTFOUND' \
  --virtual-time-budget=3000 --dump-dom "file://$work/probe.html" 2>"$work/chromium.log")"
result="$(printf '%s' "$dom" | grep -o 'id="probe">PROBE [^<]* END' || true)"
echo "$result"
[ -n "$result" ] || { echo "FAIL: the probe wrote nothing"; tail -20 "$work/chromium.log"; exit 1; }
fail=0
expect() { # a fragment the probe's JSON must contain
  if [[ "$result" != *"$1"* ]]; then echo "FAIL: expected $1"; fail=1; fi
}
expect '"tipShown":true'
expect '"tipHidden":true'
expect '"topicHidden":true'
expect '"othersShown":true'
expect '"topicBack":true'
expect '"levelHidden":true'
expect '"levelOthers":true'
expect '"searchMatch":true'
expect '"searchCleared":true'
expect '"requests":0'
expect '"errors":[]'
# The hover text names the kernel and every number the issue asks for.
for part in 'level: ' 'intensity: ' 'FLOP/B' 'achieved: ' '% of roof: ' 'bound: ' 'occupancy: '; do
  expect "$part"
done
kernel="$(printf '%s' "$result" | sed -n 's/.*"tipKernel":"\([^"]*\)".*/\1/p')"
expect "\"tip\":\"$kernel"
if [[ "$result" == *'"exception"'* ]]; then echo "FAIL: the probe threw"; fail=1; fi
if [[ "$result" == *'"searchShown":0'* ]]; then echo "FAIL: search found nothing"; fail=1; fi
if grep -q 'Uncaught' "$work/chromium.log"; then echo "FAIL: console error"; grep Uncaught "$work/chromium.log"; fail=1; fi
[ "$fail" = 0 ] && echo "PASS"
exit "$fail"
