/**
 * Hidden Nim's chance events in a record (the plugin's `recorded_chances`): the one deal,
 * each seat's bonus `randint(1, 3)` in seat order, then the first seat `randint(0, 1)`.
 */
export function recordedChances(record) {
  const deal = record.deal;
  if (!deal) return [];
  const seats = (record.players || []).length;
  return [
    {
      where: "the deal",
      label: ["deal", {}],
      recorded: { bonuses: [...deal.bonuses], first: deal.first },
      draw: (source) => {
        const bonuses = [];
        for (let s = 0; s < seats; s += 1) bonuses.push(source.randint(1, 3));
        return { bonuses, first: source.randint(0, seats - 1) };
      },
    },
  ];
}
