import { Button, Group, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { detailsAt, plainDetail } from '../../../lib/details';
import { type Project, useProjectWrites } from '../api/settings.api';

interface Row {
  /** A stable key for React while codes are typed. */
  id: number;
  code: string;
  fallback: string;
}

let nextId = 0;
const rowsOf = (locales: Project['locales']): Row[] =>
  locales
    ? [
        { id: nextId++, code: locales.default, fallback: '' },
        ...locales.available
          .filter((l) => l.code !== locales.default)
          .map((l) => ({ id: nextId++, code: l.code, fallback: l.fallback ?? locales.default })),
      ]
    : [{ id: nextId++, code: 'en', fallback: '' }];

/**
 * The server's reason at a row (contract §14's 400 details, already sentences: "Lists "fr" twice.",
 * "The fallbacks of "fr" loop (fr → fr-CA → fr)."), a code's form said as an editor would. A 409 (the
 * default changed, or languages turned off while translations exist) is the server's own plain
 * sentence, shown above the form.
 */
const said = (message: string | undefined) =>
  message === undefined
    ? null
    : /BCP 47/.test(message)
      ? 'Not a language code: use one such as en, fr or fr-CA.'
      : plainDetail(message);

/**
 * The project's languages (contract §14): the default (the first row: content written without a
 * language is its own, so it cannot change once set) and each other language with the one it falls
 * back on while a value is not translated. One PATCH of `locales`; the API's refusals (400 with paths,
 * 409 for a default changed or languages turned off while translations exist) are said in plain words
 * at the row they concern or above the form.
 */
export function LocalesSettings({ project }: { project: Project }) {
  const { update } = useProjectWrites(project.id);
  const [editing, setEditing] = useState(project.locales !== null);
  const [rows, setRows] = useState<Row[]>(() => rowsOf(project.locales));
  const [local, setLocal] = useState<string | null>(null);
  const error = update.error;
  const byRow = detailsAt(error, 'body.locales.available');
  const atDefault = detailsAt(error, 'body.locales')['default'];
  const codes = rows.map((r) => r.code.trim()).filter(Boolean);
  const defaultCode = rows[0]?.code.trim() ?? '';

  const set = (id: number, change: Partial<Row>) => {
    update.reset();
    setRows((all) => all.map((r) => (r.id === id ? { ...r, ...change } : r)));
  };
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    setLocal(null);
    if (codes.length !== rows.length) return setLocal('Give every language a code, or remove its row.');
    update.mutate(
      {
        locales: {
          default: defaultCode,
          available: rows.map((r, i) =>
            i === 0 ? { code: r.code.trim() } : { code: r.code.trim(), fallback: r.fallback || defaultCode },
          ),
        },
      },
      {
        onSuccess: (p) => {
          setRows(rowsOf(p.locales));
          notifications.show({ message: 'Languages saved' });
        },
      },
    );
  };
  const turnOff = () =>
    update.mutate(
      { locales: null },
      {
        onSuccess: () => {
          setEditing(false);
          setRows(rowsOf(null));
          notifications.show({ message: 'Languages turned off: one language again' });
        },
      },
    );

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="languages-title">
      <Stack>
        <Title order={2} size="h3" id="languages-title">
          Languages
        </Title>
        {!editing ? (
          <Group justify="space-between">
            <Text size="sm">One language: every entry has one value per field.</Text>
            <Button variant="default" onClick={() => setEditing(true)}>
              Add languages
            </Button>
          </Group>
        ) : (
          <form onSubmit={save} noValidate>
            <Stack>
              <Text size="sm">
                Fields declared <code>localized</code> get a value per language; the others are shared. A
                language without its own value shows the one it falls back on, until it is translated.
              </Text>
              <ErrorAlert error={error} title="Languages not saved" />
              {local && (
                <Text size="sm" c="red.9" role="alert">
                  {local}
                </Text>
              )}
              {rows.map((row, i) => (
                <Group key={row.id} align="start" role="group" aria-label={`Row of language ${i + 1}`}>
                  <TextInput
                    label={i === 0 ? 'Default language' : `Language ${i + 1}`}
                    description={
                      i === 0
                        ? project.locales
                          ? 'Cannot change once set'
                          : 'The existing content becomes this language’s'
                        : 'A code such as fr or fr-CA'
                    }
                    value={row.code}
                    readOnly={i === 0 && project.locales !== null}
                    error={i === 0 ? (said(atDefault) ?? said(byRow['0'])) : said(byRow[String(i)])}
                    onChange={(e) => set(row.id, { code: e.currentTarget.value })}
                    w={200}
                  />
                  {i > 0 && (
                    <NativeSelect
                      label={`Language ${i + 1} falls back to`}
                      description="Shown while not translated"
                      value={row.fallback || defaultCode}
                      onChange={(e) => set(row.id, { fallback: e.currentTarget.value })}
                      data={codes.filter((c) => c !== row.code.trim())}
                    />
                  )}
                  {i > 0 && (
                    <Button
                      variant="subtle"
                      color="red"
                      mt={26}
                      aria-label={`Remove language ${row.code || i + 1}`}
                      onClick={() => {
                        update.reset();
                        setRows((all) => all.filter((r) => r.id !== row.id));
                      }}
                    >
                      Remove
                    </Button>
                  )}
                </Group>
              ))}
              <Text size="xs" c="dimmed">
                Removing a language hides its translations; adding it again brings them back.
              </Text>
              <Group>
                <Button
                  variant="default"
                  onClick={() =>
                    setRows((all) => [...all, { id: nextId++, code: '', fallback: defaultCode }])
                  }
                >
                  Add a language
                </Button>
                <Button type="submit" loading={update.isPending && update.variables?.locales !== null}>
                  Save languages
                </Button>
                {project.locales ? (
                  <Button
                    variant="subtle"
                    color="red"
                    ml="auto"
                    loading={update.isPending && update.variables?.locales === null}
                    onClick={turnOff}
                  >
                    Turn languages off
                  </Button>
                ) : (
                  <Button variant="subtle" ml="auto" onClick={() => setEditing(false)}>
                    Cancel
                  </Button>
                )}
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
