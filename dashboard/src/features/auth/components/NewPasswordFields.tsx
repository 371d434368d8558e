import { PasswordInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';

/** The rules of a new password typed twice (the API's own: 8 to 256 characters). */
export const newPasswordRules = {
  password: (v: string) => (v.length >= 8 && v.length <= 256 ? null : 'At least 8 characters'),
  again: (v: string, values: { password: string }) =>
    v === values.password ? null : 'The two passwords differ',
};

/** "New password" and "New password again", for a form whose values hold `password` and `again`. */
export function NewPasswordFields<V extends { password: string; again: string }>({
  form,
}: {
  form: UseFormReturnType<V>;
}) {
  return (
    <>
      <PasswordInput
        label="New password"
        description="At least 8 characters"
        required
        autoComplete="new-password"
        {...form.getInputProps('password')}
      />
      <PasswordInput
        label="New password again"
        required
        autoComplete="new-password"
        {...form.getInputProps('again')}
      />
    </>
  );
}
