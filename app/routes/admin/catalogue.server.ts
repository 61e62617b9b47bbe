// What the catalogue editor's routes share on the server (docs/product/back-office.md,
// "Catalogue"): the attribute editor's action for a taxonomy or a category, and the reply of a
// change held back until its impact is confirmed.
import { data, type RouterContextProvider } from 'react-router';
import { z } from 'zod';
import { redirectWithFlash } from '~/lib/flash.server.ts';
import { type FormReply, formAction } from '~/lib/form-actions.server.ts';
import { parseId } from '~/lib/ids.ts';
import { services } from '~/lib/route.server.ts';
import { requireStaff } from '~/lib/staff.server.ts';
import { attributeSchema, deleteAttributeSchema } from '~/lib/validation/catalogue.ts';
import {
  type AttributeOwner,
  createAttribute,
  deleteAttribute,
  type Impact,
  type Outcome,
  stepAttribute,
  updateAttribute,
} from '../../../server/domain/admin/catalogue.ts';
import type { Permission } from '../../../server/domain/permissions.ts';

/** The form a reply answers (`<intent>` or `<intent>:<id>`), so only that form shows it. */
export interface CatalogueReplyExtra {
  form: string;
}
export type CatalogueReply = FormReply<CatalogueReplyExtra> & { impact?: Impact };

/** 409 with the figure: the page asks for confirmation with it (again, when it changed). */
export function askAgain(result: CatalogueReply['result'], impact: Impact) {
  return data<CatalogueReply>({ result, formError: undefined, impact }, { status: 409 });
}

/** A change made, or its question: the outcome of a change that may hurt ads. */
export function outcomeReply<T>(
  outcome: Outcome<T>,
  kept: () => CatalogueReply['result'],
  done: (value: T) => Response,
): Response | ReturnType<typeof askAgain> {
  return outcome.done ? done(outcome.value) : askAgain(kept(), outcome.impact);
}

const idOf = (form: FormData) => {
  const id = parseId(form.get('id'));
  if (id === null) throw new Response(null, { status: 400, statusText: 'Bad Request' });
  return id;
};

const nothing = z.object({});

/**
 * The attribute editor's action (a taxonomy's or a category's page): `create`, `save` (names,
 * options, unit, flags, range of attribute `id`), `delete`, `up`, `down`. Checks `permission` first.
 */
export async function attributeAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  form: FormData,
  permission: Permission,
  owner: AttributeOwner,
  back: string,
) {
  const { actor } = await requireStaff(request, context, permission);
  const handle = services(context).database;
  const intent = form.get('intent');
  switch (intent) {
    case 'create':
      return formAction(
        form,
        attributeSchema,
        async (value) => {
          const { confirmed: _, ...fields } = value;
          await createAttribute(handle, actor, owner, fields);
          return redirectWithFlash(back, 'admin-created');
        },
        { extra: { form: 'create' } },
      );
    case 'save': {
      const id = idOf(form);
      return formAction(
        form,
        attributeSchema,
        async (value, { kept }) => {
          const { confirmed, key: _key, type: _type, ...fields } = value;
          const outcome = await updateAttribute(handle, actor, owner, id, fields, confirmed);
          return outcomeReply(outcome, kept, () => redirectWithFlash(back, 'admin-saved'));
        },
        { extra: { form: `save:${id}` } },
      );
    }
    case 'delete': {
      const id = idOf(form);
      return formAction(
        form,
        deleteAttributeSchema,
        async (value, { kept }) =>
          outcomeReply(await deleteAttribute(handle, actor, owner, id, value.confirmed), kept, () =>
            redirectWithFlash(back, 'admin-deleted'),
          ),
        { extra: { form: `delete:${id}` } },
      );
    }
    case 'up':
    case 'down': {
      const id = idOf(form);
      return formAction(
        form,
        nothing,
        async () => {
          await stepAttribute(handle, actor, owner, id, intent);
          return redirectWithFlash(back, 'admin-saved');
        },
        { extra: { form: `${intent}:${id}` } },
      );
    }
    default:
      throw new Response(null, { status: 400, statusText: 'Bad Request' });
  }
}
