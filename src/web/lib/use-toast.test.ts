import { describe, expect, it } from 'vitest';
import { reducer, type ToasterToast } from './use-toast';

const toastWith = (id: string): ToasterToast => ({ id, title: `Toast ${id}`, open: true });

describe('toast queue', () => {
  it('keeps only the newest toast (at most one shows)', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: toastWith('1') });
    state = reducer(state, { type: 'ADD_TOAST', toast: toastWith('2') });
    expect(state.toasts.map((t) => t.id)).toEqual(['2']);
  });

  it('closes a dismissed toast but keeps it until it is removed', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: toastWith('1') });
    state = reducer(state, { type: 'DISMISS_TOAST', toastId: '1' });
    expect(state.toasts).toEqual([expect.objectContaining({ id: '1', open: false })]);
    state = reducer(state, { type: 'REMOVE_TOAST', toastId: '1' });
    expect(state.toasts).toEqual([]);
  });

  it('updates a toast in place', () => {
    let state = reducer({ toasts: [] }, { type: 'ADD_TOAST', toast: toastWith('1') });
    state = reducer(state, { type: 'UPDATE_TOAST', toast: { id: '1', description: 'more' } });
    expect(state.toasts[0]).toMatchObject({ id: '1', title: 'Toast 1', description: 'more' });
  });
});
