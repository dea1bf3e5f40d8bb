/**
 * Hidden Nim's chance events in a record (the plugin's `recorded_chances`): the one deal:
 * the cards 1 to 10 shuffled (seat s's bonus is `deck[s]`), then the first seat
 * `randint(0, seats - 1)`.
 */
export function recordedChances(record) {
  const deal = record.deal;
  if (!deal) return [];
  const seats = (record.players || []).length;
  return [
    {
      where: "the deal",
      label: ["deal", {}],
      recorded: { deck: [...deal.deck], first: deal.first },
      draw: (source) => {
        const deck = Array.from({ length: 10 }, (_, i) => i + 1);
        source.shuffle(deck);
        return { deck, first: source.randint(0, seats - 1) };
      },
    },
  ];
}
