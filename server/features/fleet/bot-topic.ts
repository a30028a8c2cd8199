/** The topic of one bot's own frames (its `config`): only the instance holding its socket follows it. */
export const botTopic = (ghostId: string) => `bot:${ghostId}`;
