import { Badge, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { Link } from 'react-router';
import { pagePath } from '../../../pages';
import type { Site } from '../../api/entries.api';
import { type EntrySummary, useChosenEntries, useEntrySearch } from '../../api/search.api';
import { ENTRY_ID } from '../../lib/fields';
import type { ControlProps } from './ChoiceControls';
import { errorOf, inputProps, useProblems } from './decl';

const SHOWN = 8;

/** The text box narrows the entries the search listed by their title, component and instance key. */
const matches = (e: EntrySummary, text: string) => {
  if (!text) return true;
  const t = text.toLowerCase();
  return [e.title ?? '', e.instanceKey, e.componentId].some((s) => s.toLowerCase().includes(t));
};
const titleOfEntry = (e: EntrySummary) => e.title ?? e.instanceKey;

/**
 * `reference`: entry ids (one, or several with `multiple`), typed in or found by page (the API's entry
 * search, GET /v1/entries, as the editor types) and narrowed by component or text. Each chosen entry is
 * read back by id, so it shows its title, component, page and status whatever the project's size (the
 * picker used to read the first 20 pages and showed other entries as a bare id), and opens its page.
 */
export function ReferenceControl({ decl, value, path, onChange, site }: ControlProps & { site: Site }) {
  const multiple = decl.multiple === true;
  const ids = (Array.isArray(value) ? value : typeof value === 'string' ? [value] : []) as string[];
  const allowed = Array.isArray(decl.componentIds) ? (decl.componentIds as string[]) : [];
  const [pageQuery, setPageQuery] = useState('');
  const [text, setText] = useState('');
  const [typed, setTyped] = useState('');
  const [searching, setSearching] = useState(false);
  const [q] = useDebouncedValue(pageQuery.trim(), 200);
  const found = useEntrySearch(site.projectId, q, allowed, searching);
  const chosen = useChosenEntries(
    site.projectId,
    ids.filter((id) => typeof id === 'string'),
  );
  const problems = useProblems();
  const props = inputProps(decl);
  const known = new Map([...(found.data ?? []), ...(chosen.data ?? [])].map((e) => [e.id, e]));
  const candidates = (found.data ?? [])
    .filter((e) => !ids.includes(e.id) && matches(e, text))
    .slice(0, SHOWN);

  const set = (next: string[]) =>
    onChange(next.length === 0 ? undefined : multiple ? next : next[next.length - 1]);
  const add = (id: string) => set(multiple ? [...ids, id] : [id]);
  const typedError = typed !== '' && !ENTRY_ID.test(typed) ? 'An entry id is "ent_" and 26 characters' : null;

  return (
    <Fieldset legend={`${props.label}${props.withAsterisk ? ' *' : ''}`} variant="unstyled">
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          {props.description}
          {allowed.length > 0 && ` · ${allowed.join(', ')}`}
        </Text>
        {problems.at(path).length > 0 && (
          <Text size="sm" c="red.8">
            {errorOf(null, problems.at(path))}
          </Text>
        )}
        {ids.length === 0 && (
          <Text size="sm" c="dimmed">
            Nothing chosen.
          </Text>
        )}
        {ids.map((id, i) => {
          const e = known.get(id);
          return (
            <Group key={id} gap="xs" wrap="nowrap">
              {e ? (
                <>
                  <Link to={pagePath(site.projectId, e.pageId)}>{titleOfEntry(e)}</Link>
                  <Badge variant="outline" color="dark" tt="none">
                    {e.componentId}
                  </Badge>
                  <Text size="sm">
                    on <span className="folio-mono">{e.pageId}</span>
                  </Text>
                  <Badge variant="light" c="dark" color={e.status === 'published' ? 'green' : 'yellow'}>
                    {e.status}
                  </Badge>
                </>
              ) : (
                <Text size="sm" c="dimmed" title={id}>
                  {chosen.isFetching
                    ? 'Loading the chosen entry…'
                    : chosen.isError
                      ? 'The chosen entry could not be read'
                      : 'An entry that no longer exists'}
                </Text>
              )}
              {multiple && problems.at(`${path}[${i}]`).length > 0 && (
                <Text size="sm" c="red.8">
                  {problems.at(`${path}[${i}]`).join('; ')}
                </Text>
              )}
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                aria-label={`Remove ${e ? titleOfEntry(e) : id} from ${props.label}`}
                onClick={() => set(ids.filter((x) => x !== id))}
              >
                Remove
              </Button>
            </Group>
          );
        })}
        <Group align="flex-end" wrap="nowrap">
          <TextInput
            label={`${props.label}: entry id`}
            placeholder="ent_…"
            classNames={{ input: 'folio-mono' }}
            value={typed}
            error={typedError}
            onChange={(e) => setTyped(e.currentTarget.value.trim())}
            style={{ flex: 1 }}
          />
          <Button
            variant="default"
            disabled={!ENTRY_ID.test(typed)}
            onClick={() => {
              add(typed);
              setTyped('');
            }}
          >
            Use id
          </Button>
          <Button variant="default" aria-expanded={searching} onClick={() => setSearching((s) => !s)}>
            Search entries
          </Button>
        </Group>
        {searching && (
          <Stack gap="xs" role="group" aria-label={`Search entries for ${props.label}`}>
            <Group grow>
              <TextInput
                label="Page"
                placeholder="/ or @site"
                value={pageQuery}
                onChange={(e) => setPageQuery(e.currentTarget.value)}
              />
              <TextInput
                label="Component or text"
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
              />
            </Group>
            {candidates.length === 0 ? (
              <Text size="sm">{found.isFetching ? 'Searching…' : 'No entry matches.'}</Text>
            ) : (
              candidates.map((e) => (
                <Group key={e.id} gap="xs">
                  <Button
                    size="compact-sm"
                    variant="light"
                    aria-label={`Choose ${titleOfEntry(e)} (${e.componentId} on ${e.pageId})`}
                    onClick={() => add(e.id)}
                  >
                    Choose
                  </Button>
                  <Text size="sm">
                    {titleOfEntry(e)} · {e.componentId} on <span className="folio-mono">{e.pageId}</span> ·{' '}
                    {e.status}
                  </Text>
                </Group>
              ))
            )}
          </Stack>
        )}
      </Stack>
    </Fieldset>
  );
}
