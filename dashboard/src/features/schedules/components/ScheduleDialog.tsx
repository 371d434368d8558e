import { Button, Group, Modal, Radio, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatTime } from '../../../lib/format';
import { useCreateSchedule } from '../api/schedules.api';
import { fromLocalInput, oneYearFrom, timeZoneLabel, toLocalInput, tomorrowMorning } from '../lib/local-time';

/** `locale`: the locale being edited, in a project with locales (the dialog then asks: it or every one). */
export type ScheduleTarget =
  | { kind: 'entry'; entryId: string; label: string; unsaved: boolean; locale?: string | undefined }
  | { kind: 'page'; pageId: string; locale?: string | undefined };

/**
 * Schedule a publish or unpublish at a date and time in the editor's time zone (a native
 * datetime-local input: the browser's own accessible date and time picker, no style injection, which
 * the CSP would refuse, and nothing more to download). Sent as UTC; the API checks it is in the future
 * and within a year.
 */
export default function ScheduleDialog({
  site,
  target,
  opened,
  onClose,
}: {
  site: { projectId: string; apiKey: string };
  target: ScheduleTarget;
  opened: boolean;
  onClose(): void;
}) {
  const create = useCreateSchedule(site);
  const [action, setAction] = useState<'publish' | 'unpublish'>('publish');
  const [when, setWhen] = useState(() => toLocalInput(tomorrowMorning()));
  const [problem, setProblem] = useState<string | null>(null);
  const [inLocale, setInLocale] = useState<'one' | '*'>('one');
  // A project without locales sends no `locale` (the API answers 400 to one there).
  const locale = target.locale === undefined ? {} : { locale: inLocale === '*' ? '*' : target.locale };
  const what = target.kind === 'page' ? `page ${target.pageId}` : target.label;

  const close = () => {
    create.reset();
    setProblem(null);
    onClose();
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const at = fromLocalInput(when);
    if (!at) return setProblem('Enter a date and a time');
    if (at.getTime() <= Date.now()) return setProblem('Pick a time in the future');
    if (at.getTime() > oneYearFrom().getTime()) return setProblem('At most one year ahead');
    setProblem(null);
    create.mutate(
      target.kind === 'page'
        ? { action: 'publish', pageId: target.pageId, at: at.toISOString(), ...locale }
        : { action, entryId: target.entryId, at: at.toISOString(), ...locale },
      {
        onSuccess: (s) => {
          notifications.show({
            message: `${s.action === 'publish' ? 'Publish' : 'Unpublish'} of ${what} scheduled for ${formatTime(s.at)}`,
          });
          close();
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title={`Schedule ${what}`}>
      <form onSubmit={submit} noValidate>
        <Stack>
          <ErrorAlert error={create.error} title="Not scheduled" />
          {target.kind === 'page' ? (
            <Text size="sm">
              At that time every entry of the page that is a draft then is published, as “Publish page” does.
            </Text>
          ) : (
            <Radio.Group
              label="Action"
              value={action}
              onChange={(v) => setAction(v as 'publish' | 'unpublish')}
            >
              <Stack gap={6} mt={6}>
                <Radio value="publish" label="Publish" description="What is saved at that time goes live" />
                <Radio value="unpublish" label="Unpublish" description="Visitors stop seeing it" />
              </Stack>
            </Radio.Group>
          )}
          {target.locale !== undefined && (
            <Radio.Group label="Language" value={inLocale} onChange={(v) => setInLocale(v as 'one' | '*')}>
              <Stack gap={6} mt={6}>
                <Radio value="one" label={`Only ${target.locale}`} />
                <Radio value="*" label="Every language" description="Each language's own copy, at once" />
              </Stack>
            </Radio.Group>
          )}
          {target.kind === 'entry' && target.unsaved && (
            <Text size="sm" c="orange.9" role="status">
              This entry has unsaved changes: save them first if they should be published then.
            </Text>
          )}
          <TextInput
            type="datetime-local"
            label="Date and time"
            description={`Your time zone: ${timeZoneLabel()}`}
            required
            value={when}
            min={toLocalInput(new Date())}
            max={toLocalInput(oneYearFrom())}
            error={problem}
            onChange={(e) => {
              setWhen(e.currentTarget.value);
              setProblem(null);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Schedule
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
