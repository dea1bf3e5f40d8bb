/**
 * Fives' chance events in a record (the plugin's `recorded_chances`): one deal a hand; the
 * first hand's lots come first from the same stream (a partial shuffle of the set), then
 * the set is shuffled and cut into hands of 7 and the bazaar in draw order.
 */
import { TILE_NAMES, dealOutcome, shuffledSet, tileName } from "../../js/fairness.js";

export function recordedChances(record) {
  const hands = record.hands || [];
  const seats = (record.players || hands[0]?.deal?.hands || [0, 0]).length;
  return hands.map((hand, h) => ({
    where: `hand ${h}`,
    label: ["hand", { n: h + 1 }],
    recorded: {
      lots: h === 0 && record.lots != null ? record.lots.map(tileName) : null,
      ...dealOutcome(hand.deal.hands, hand.deal.bazaar || []),
    },
    draw(source) {
      const lots = h === 0
        ? source.sample(Array.from({ length: 28 }, (_, i) => i), seats).map((t) => TILE_NAMES[t])
        : null;
      const tiles = shuffledSet(source);
      const dealt = Array.from({ length: seats }, (_, s) => tiles.slice(s * 7, s * 7 + 7));
      return { lots, ...dealOutcome(dealt, tiles.slice(seats * 7)) };
    },
  }));
}
