/**
 * A count with its noun in the right number: plural(1, 'bot', 'bots') is '1 bot', plural(2, 'bot',
 * 'bots') '2 bots'. Both forms are spelled out, so a text stays findable as written ('N bots').
 */
export function plural(count: number, singular: string, pluralForm: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`;
}

/** Names joined as a sentence says them: "a", "a and b", "a, b and c". */
export function listed(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
