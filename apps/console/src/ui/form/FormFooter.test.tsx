import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { i18n } from '../../i18n/i18n';
import { renderAt } from '../../test/api-stub';
import { swahili } from '../../test/contract-api';
import { FormFooter, type FormFooterProps } from './FormFooter';

/** A form whose submit waits until the test lets it go, ending with the footer under test. */
function Sending({
  footer,
  onSubmit,
}: {
  footer: Omit<FormFooterProps, 'problem'> & { problem?: string | null };
  onSubmit: () => Promise<void>;
}) {
  const form = useForm();
  const [sent, setSent] = useState(0);
  return (
    <FormProvider {...form}>
      <form aria-label="A form" onSubmit={form.handleSubmit(async () => (await onSubmit(), setSent((n) => n + 1)))}>
        <p>{`sent ${sent}`}</p>
        <FormFooter problem={null} {...footer} />
      </form>
    </FormProvider>
  );
}

function held() {
  let release = () => {};
  const submit = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
  return { submit, release: () => release() };
}

describe('a form footer', () => {
  it('keeps the submit off while the request runs (a second press sends nothing), saying it is working, and on again after', async () => {
    const { submit, release } = held();
    renderAt(<Sending footer={{ submitLabel: 'Save', busyLabel: 'Saving…' }} onSubmit={submit} />, { path: '/' });
    const button = screen.getByRole('button', { name: 'Save' });
    fireEvent.click(button);
    const working = await screen.findByRole('button', { name: 'Saving…' });
    expect((working as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(working);
    release();
    await screen.findByText('sent 1');
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(false);
    expect(submit).toHaveBeenCalledTimes(1);
  });

  it('says a refusal as an alert before the buttons, else that it went through as a status', () => {
    const view = renderAt(
      <Sending footer={{ submitLabel: 'Save', problem: 'The name is taken.', done: 'Saved.' }} onSubmit={async () => {}} />,
      {
        path: '/',
      },
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('The name is taken.');
    expect(screen.queryByRole('status')).toBeNull(); // a refusal, not both
    expect(alert.compareDocumentPosition(screen.getByRole('button', { name: 'Save' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    view.unmount();
    renderAt(<Sending footer={{ submitLabel: 'Save', done: 'Saved.' }} onSubmit={async () => {}} />, { path: '/' });
    expect(screen.getByRole('status').textContent).toBe('Saved.');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('follows a mutation given as busy, and stays off while the form is not ready', () => {
    const view = renderAt(<Sending footer={{ submitLabel: 'Save', busy: true }} onSubmit={async () => {}} />, { path: '/' });
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    view.unmount();
    renderAt(<Sending footer={{ submitLabel: 'Save', ready: false }} onSubmit={async () => {}} />, { path: '/' });
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('puts Cancel (a button or a link back) and other buttons before the submit, which is last, in its tone', async () => {
    const cancel = vi.fn();
    const view = renderAt(
      <Sending
        footer={{ submitLabel: 'Disable', tone: 'danger', onCancel: cancel, actions: <button type="button">Use a code</button> }}
        onSubmit={async () => {}}
      />,
      { path: '/' },
    );
    const names = screen.getAllByRole('button').map((b) => b.textContent);
    expect(names).toEqual(['Use a code', 'Cancel', 'Disable']);
    expect(screen.getByRole('button', { name: 'Disable' }).className).toBe('btn btn-danger');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(cancel).toHaveBeenCalledTimes(1);
    view.unmount();
    renderAt(<Sending footer={{ submitLabel: 'Create', cancelTo: '/journeys', tone: 'plain' }} onSubmit={async () => {}} />, { path: '/' });
    expect(screen.getByRole('link', { name: 'Cancel' }).getAttribute('href')).toBe('/journeys');
    expect(screen.getByRole('button', { name: 'Create' }).className).toBe('btn');
    await i18n.changeLanguage('sw');
    await waitFor(() => expect(screen.getByRole('link', { name: swahili('common.cancel') })).toBeTruthy());
  });
});
