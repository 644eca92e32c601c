// npm run new:category -- --name "Email Marketing": writes content/categories/email-marketing.json, a valid stub.

import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { createCategory } from "../scaffold/create-stub.ts";

const options = {
  name: {
    type: "string",
    valueName: "NAME",
    description: "the category's display name (required); the slug and file name come from it",
  },
  slug: { type: "string", valueName: "SLUG", description: "the slug, when the one made from the name is not wanted" },
  content: { type: "string", default: "content", valueName: "DIR", description: "the content folder" },
  json: {
    type: "boolean",
    default: false,
    description: "print one JSON object: { ok, path, slug } or { ok: false, error }",
  },
} as const;

export const NEW_CATEGORY: CommandSpec<typeof options> = {
  usage: 'npm run new:category -- --name "Email Marketing"',
  summary:
    "Creates content/categories/<slug>.json (name and slug; add topToolPick later if you want an editorial pick). Never overwrites a file.",
  options,
  notes: [
    'then add its slug to a tool\'s "categories", or: npm run new:tool -- --name "Acme Mail" --category email-marketing',
  ],
};

if (isMain(import.meta.url)) {
  let json = false;
  void runCommand(
    async () => {
      const values = parseCommandArgs(NEW_CATEGORY);
      json = values.json;
      if (values.name === undefined) throw new UserError(`--name is required (usage: ${NEW_CATEGORY.usage})`, 2);
      const created = await createCategory({ contentDir: values.content, name: values.name, slug: values.slug });
      if (json) console.log(JSON.stringify({ ok: true, ...created }));
      else {
        console.log(created.path);
        console.error(`next: put tools in it with "categories": ["${created.slug}"]; listed once it has two tools`);
      }
    },
    { json: () => json },
  );
}
