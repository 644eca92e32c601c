// npm run new:tool -- --name "Acme Mail": writes content/tools/acme-mail.json, a valid stub to fill in.

import { type CommandSpec, isMain, parseCommandArgs, runCommand, UserError } from "../cli/command.ts";
import { createTool } from "../scaffold/create-stub.ts";

const options = {
  name: {
    type: "string",
    valueName: "NAME",
    description: "the tool's display name (required); the slug and file name come from it",
  },
  slug: { type: "string", valueName: "SLUG", description: "the slug, when the one made from the name is not wanted" },
  category: {
    type: "string",
    multiple: true,
    valueName: "SLUG",
    description: "a category the tool is in (repeat for more); it must exist",
  },
  content: { type: "string", default: "content", valueName: "DIR", description: "the content folder" },
  json: {
    type: "boolean",
    default: false,
    description: "print one JSON object: { ok, path, slug } or { ok: false, error }",
  },
} as const;

export const NEW_TOOL: CommandSpec<typeof options> = {
  usage: 'npm run new:tool -- --name "Acme Mail"',
  summary:
    "Creates content/tools/<slug>.json with every field: nulls, empty lists and TODO text to fill in. It builds as it is. Never overwrites a file.",
  options,
  notes: ['example: npm run new:tool -- --name "Acme Mail" --category email-marketing'],
};

if (isMain(import.meta.url)) {
  let json = false;
  void runCommand(
    async () => {
      const values = parseCommandArgs(NEW_TOOL);
      json = values.json;
      if (values.name === undefined) throw new UserError(`--name is required (usage: ${NEW_TOOL.usage})`, 2);
      const created = await createTool({
        contentDir: values.content,
        name: values.name,
        slug: values.slug,
        categories: values.category ?? [],
      });
      if (json) console.log(JSON.stringify({ ok: true, ...created }));
      else {
        console.log(created.path);
        console.error(`next: fill in the TODO and empty fields of ${created.path}, then npm run build`);
      }
    },
    { json: () => json },
  );
}
