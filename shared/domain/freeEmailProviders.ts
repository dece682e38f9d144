/**
 * Consumer mailbox providers: a real person, but not a company address. Used by e-mail verification
 * (the free_provider reason) and by growth normalisation (gmail.com is nobody's company domain).
 * A table here because the `free-email-domains` package downloads its list at install time, which a
 * sealed build cannot do.
 */
export const FREE_PROVIDERS: ReadonlySet<string> = new Set([
  'aol.com', 'bk.ru', 'fastmail.com', 'gmail.com', 'gmx.com', 'gmx.de', 'gmx.net', 'googlemail.com', 'hey.com',
  'hotmail.co.uk', 'hotmail.com', 'hotmail.de', 'hotmail.fr', 'icloud.com', 'inbox.ru', 'libero.it', 'list.ru', 'live.com',
  'mac.com', 'mail.com', 'mail.ru', 'me.com', 'msn.com', 'naver.com', 'orange.fr', 'outlook.com', 'outlook.de', 'pm.me', 'proton.me',
  'protonmail.com', 'qq.com', 'rambler.ru', 'rediffmail.com', 't-online.de', 'tutanota.com', 'web.de', 'yahoo.co.jp',
  'yahoo.co.uk', 'yahoo.com', 'yahoo.de', 'yahoo.fr', 'yandex.com', 'yandex.ru', 'ymail.com', 'zoho.com', '163.com', '126.com',
]);

export const isFreeProvider = (domain: string): boolean => FREE_PROVIDERS.has(domain.toLowerCase());
