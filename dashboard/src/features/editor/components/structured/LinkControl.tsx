import { Autocomplete, Fieldset, Group, Radio, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { usePageSearch } from '../../api/search.api';
import { isLinkable } from '../../lib/fields';
import type { ControlProps } from './ChoiceControls';
import { errorOf, inputProps, useProblems } from './decl';

type Mode = 'page' | 'href';

/**
 * `link`: a page of the project, searched as one types (GET /v1/pages?q=), stored `{ pageId }`; or an
 * address typed in, stored `{ href }` (contract §13). A page id that does not exist is the API's rule
 * problem at publish, not refused here: the page may be about to be synced.
 */
export function LinkControl({
  decl,
  value,
  path,
  onChange,
  projectId,
}: ControlProps & { projectId: string }) {
  const stored = (value ?? {}) as { pageId?: unknown; href?: unknown };
  const [mode, setMode] = useState<Mode>(typeof stored.href === 'string' ? 'href' : 'page');
  const [page, setPage] = useState(typeof stored.pageId === 'string' ? stored.pageId : '');
  const [href, setHref] = useState(typeof stored.href === 'string' ? stored.href : '');
  const [q] = useDebouncedValue(page, 200);
  const pages = usePageSearch(projectId, q, mode === 'page');
  const problems = useProblems();
  const props = inputProps(decl);
  const hrefError =
    href !== '' && !isLinkable(href)
      ? 'Enter an http(s), mailto: or tel: address, or a path such as /about'
      : null;

  const choose = (m: Mode) => {
    setMode(m);
    if (m === 'page') onChange(page ? { pageId: page } : undefined);
    else onChange(href && isLinkable(href) ? { href } : undefined);
  };

  return (
    <Fieldset legend={`${props.label}${props.withAsterisk ? ' *' : ''}`} variant="unstyled">
      <Radio.Group
        value={mode}
        onChange={(v) => choose(v as Mode)}
        description={props.description}
        aria-label={`${props.label}: links to`}
        error={errorOf(null, problems.at(path))}
      >
        <Group mt={4}>
          <Radio value="page" label="A page" />
          <Radio value="href" label="An address" />
        </Group>
      </Radio.Group>
      {mode === 'page' ? (
        <Autocomplete
          mt="xs"
          label={`${props.label}: page`}
          placeholder="Search the pages"
          data={(pages.data ?? []).map((p) => p.pageId)}
          value={page}
          onChange={(v) => {
            setPage(v);
            onChange(v ? { pageId: v } : undefined);
          }}
          error={errorOf(null, problems.at(`${path}.pageId`))}
        />
      ) : (
        <TextInput
          mt="xs"
          label={`${props.label}: address`}
          inputMode="url"
          placeholder="https://… or /path"
          value={href}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setHref(v);
            if (v === '') onChange(undefined);
            else if (isLinkable(v)) onChange({ href: v });
          }}
          error={errorOf(hrefError, problems.at(`${path}.href`))}
        />
      )}
    </Fieldset>
  );
}
