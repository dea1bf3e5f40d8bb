/**
 * The dice game's chance events in a record (the plugin's `recorded_chances`): every die
 * in the order rolled (an order die, a turn's five, a re-roll of the dice not kept), each
 * `randint(1, 6)`.
 */
export function recordedChances(record) {
  const events = [];
  let turn = 0;
  for (const action of record.actions || []) {
    let where;
    let label;
    if (action.type === "order") {
      where = `order roll of seat ${action.seat}`;
      label = ["order", { seat: action.seat }];
    } else if (action.type === "roll") {
      turn += 1;
      where = `turn ${turn} (seat ${action.seat}): roll`;
      label = ["roll", { turn, seat: action.seat }];
    } else if (action.type === "improve") {
      where = `turn ${turn} (seat ${action.seat}): re-roll`;
      label = ["reroll", { turn, seat: action.seat }];
    } else {
      continue;
    }
    const dice = action.type === "order" ? [action.die] : [...action.dice];
    events.push({
      where,
      label,
      recorded: { dice },
      draw: (source) => ({ dice: dice.map(() => source.randint(1, 6)) }),
    });
  }
  return events;
}
