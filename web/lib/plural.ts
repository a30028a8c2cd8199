/**
 * A count with its noun in the right number: plural(1, 'bot', 'bots') is '1 bot', plural(2, 'bot',
 * 'bots') '2 bots'. Both forms are spelled out, so a text stays findable as written ('N bots').
 */
export function plural(count: number, singular: string, pluralForm: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? singular : pluralForm}`;
}
