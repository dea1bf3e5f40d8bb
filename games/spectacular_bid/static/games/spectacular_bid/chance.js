/**
 * Spectacular Bid's chance events in a record (the plugin's `recorded_chances`): one deal
 * a hand, the shuffled set cut 7 + 7 and the boneyard in draw order. For static/js/fairness.js.
 */
import { dealOutcome, shuffledSet } from "../../js/fairness.js";

export function recordedChances(record) {
  return (record.hands || []).map((hand, h) => ({
    where: `hand ${h}`,
    label: ["hand", { n: h + 1 }],
    recorded: dealOutcome(hand.deal.hands, hand.deal.boneyard),
    draw(source) {
      const tiles = shuffledSet(source);
      return dealOutcome([tiles.slice(0, 7), tiles.slice(7, 14)], tiles.slice(14, 28));
    },
  }));
}
