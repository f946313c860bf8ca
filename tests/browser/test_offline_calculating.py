"""While the phone's engine warms up (seconds on a slow phone), the payments bar says it is calculating.

The engine's worker is held back by the test (its answers kept until released, as a slow phone's
warm-up would): the hand form offline says "calculando…" where the payments go, never nothing, and
shows the payments once the engine answers.
"""

from __future__ import annotations

from playwright.sync_api import BrowserContext, Page, expect

from .conftest import LiveServer, Taps
from .helpers import PLAYERS, fill_hand, new_session, seed_table
from .test_offline import plan
from .test_offline_engine import prepare
from .test_offline_engine import pytestmark as engine_marks

pytestmark = engine_marks

# The engine's worker, its answers held until window.releaseEngine(): a warm-up as long as the test wants.
HELD = """
(function () {
  var Real = window.Worker;
  if (!Real) return;
  var held = [];
  var holding = true;
  window.releaseEngine = function () { holding = false; held.splice(0).forEach(function (go) { go(); }); };
  window.Worker = function (url, options) {
    var worker = new Real(url, options);
    var handler = null;
    Object.defineProperty(worker, "onmessage", {
      get: function () { return handler; },
      set: function (h) { handler = h; },
    });
    worker.addEventListener("message", function (event) {
      var go = function () { if (handler) handler(event); };
      if (holding) held.push(go); else go();
    });
    return worker;
  };
})();
"""


def test_the_payments_bar_says_calculating_while_the_engine_warms_up(
    live_server: LiveServer, phone: BrowserContext, page: Page, taps: Taps
) -> None:
    session = new_session(favor_suit="bastos")
    token, _view = seed_table(live_server, session)
    phone.add_init_script(HELD)
    prepare(page, live_server, token, taps)

    phone.set_offline(True)  # the worker starts: its warm-up is held
    hand = plan(session, 1)[0]
    taps(page.get_by_role("link", name="Anotar mano"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Anotar mano")
    fill_hand(page, taps, PLAYERS, hand)
    bar = page.locator("#live")
    expect(bar).to_be_visible()
    expect(bar).to_have_text("calculando…")

    page.evaluate("window.releaseEngine()")
    expect(bar).to_contain_text("calculado sin conexión", timeout=60_000)
    expect(bar).to_contain_text("Mano 1 · ganada")
