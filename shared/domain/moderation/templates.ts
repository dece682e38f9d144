/** Fills `{name}` placeholders; unknown placeholders are left as written so a typo stays visible. */
export function renderTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? values[name] : whole));
}

/** How a member is named in alerts and the audit log: the username without its @, else the platform id. */
export const displayName = (user: { id: string; username?: string }): string =>
  user.username?.replace(/^@/, '') || user.id;

/** How a welcome names a member: as in alerts, but by the name the platform shows before falling back to an id. */
export const greetingName = (user: { id: string; username?: string; name?: string }): string =>
  user.username?.replace(/^@/, '') || user.name || user.id;
