/*
 * Stand-in for Stripe.js (https://js.stripe.com/basil/stripe.js) in browser tests only: the e2e
 * tests serve this file by intercepting https://js.stripe.com/**; production always loads the real
 * Stripe.js. It implements the surface @stripe/stripe-js (loadStripe) and @stripe/react-stripe-js v4
 * (<Elements>, <CardElement>, useStripe, useElements) call:
 *   Stripe(pk) → { elements(), createPaymentMethod(), confirmCardPayment(), confirmCardSetup(),
 *                  handleCardAction(), retrievePaymentIntent(), createToken(), _registerWrapper(),
 *                  registerAppInfo() }
 *   elements.create('card') → element with mount/unmount/destroy/on/off/once/update/focus/blur/clear
 * The card element is a plain <input data-testid="stand-in-card-number"> instead of Stripe's iframe.
 * Stripe's test numbers map to its test PaymentMethods (expiry and CVC are implied):
 *   4242 4242 4242 4242 → pm_card_visa            5555 5555 5555 4444 → pm_card_mastercard
 *   4000 0027 6000 3184 → pm_card_authenticationRequired (3-D Secure every time)
 *   4000 0025 0000 3155 → pm_card_authenticationRequiredSetupForOffSession (3-D Secure until set up)
 *   4000 0000 0000 0002 → pm_card_chargeDeclined   4000 0000 0000 0341 → pm_card_chargeCustomerFail
 * Empty or short numbers answer "Your card number is incomplete.", a failed Luhn check "Your card
 * number is invalid.", any other valid number Stripe's test-mode refusal of a live card.
 * confirmCardPayment and confirmCardSetup POST to the Stripe stand-in named by window.__STRIPE_SIM_URL__ (set by the
 * test before the page loads), as Stripe.js does to api.stripe.com with the publishable key; the
 * stand-in plays the 3-D Secure challenge with the outcome set by POST /_sim/3ds.
 * Every call is recorded in window.__STRIPE_STAND_IN__.calls for assertions.
 */
(() => {
  const TEST_CARDS = {
    4242424242424242: { id: 'pm_card_visa', brand: 'visa' },
    5555555555554444: { id: 'pm_card_mastercard', brand: 'mastercard' },
    4000002760003184: { id: 'pm_card_authenticationRequired', brand: 'visa' },
    4000002500003155: { id: 'pm_card_authenticationRequiredSetupForOffSession', brand: 'visa' },
    4000000000000002: { id: 'pm_card_chargeDeclined', brand: 'visa' },
    4000000000000341: { id: 'pm_card_chargeCustomerFail', brand: 'visa' },
  };
  const CARD_TYPES = ['card', 'cardNumber'];
  const standIn = { version: 'basil', calls: [] };
  window.__STRIPE_STAND_IN__ = standIn;

  const record = (method, detail) => standIn.calls.push({ method, detail, at: Date.now() });

  function brandOf(digits) {
    if (/^4/.test(digits)) return 'visa';
    if (/^(5[1-5]|2[2-7])/.test(digits)) return 'mastercard';
    if (/^3[47]/.test(digits)) return 'amex';
    if (/^6(011|5)/.test(digits)) return 'discover';
    return 'unknown';
  }

  function luhn(digits) {
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return sum % 10 === 0;
  }

  /** Stripe's validation errors for the number field; null when it is complete and valid. */
  function validationError(digits) {
    const length = brandOf(digits) === 'amex' ? 15 : 16;
    if (digits.length < length) {
      return {
        type: 'validation_error',
        code: 'incomplete_number',
        message: 'Your card number is incomplete.',
      };
    }
    if (!luhn(digits)) {
      return { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' };
    }
    return null;
  }

  function integrationError(message) {
    const err = new Error(message);
    err.name = 'IntegrationError';
    return err;
  }

  /** What Stripe.js resolves with for a card: a PaymentMethod, or `{error}` like Stripe's. */
  function paymentMethodFor(element, billingDetails) {
    if (!element?.__standIn) {
      throw integrationError('Invalid value for createPaymentMethod: card should be a card Element.');
    }
    const digits = element.__digits();
    const invalid = validationError(digits);
    if (invalid) return { error: invalid };
    const known = TEST_CARDS[digits];
    if (!known) {
      return {
        error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'live_mode_test_card',
          message:
            'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
        },
      };
    }
    return {
      paymentMethod: {
        id: known.id,
        object: 'payment_method',
        type: 'card',
        billing_details: Object.assign(
          { address: null, email: null, name: null, phone: null },
          billingDetails || {},
        ),
        card: {
          brand: known.brand,
          country: 'US',
          exp_month: 12,
          exp_year: new Date().getUTCFullYear() + 3,
          funding: 'credit',
          last4: digits.slice(-4),
        },
        created: Math.floor(Date.now() / 1000),
        customer: null,
        livemode: false,
        metadata: {},
      },
    };
  }

  function createEmitter() {
    const handlers = {};
    return {
      on(event, handler) {
        if (!handlers[event]) handlers[event] = [];
        handlers[event].push(handler);
      },
      off(event, handler) {
        if (!handlers[event]) return;
        handlers[event] = handler
          ? handlers[event].filter((h) => h !== handler && h.__original !== handler)
          : [];
      },
      once(event, handler) {
        const wrapped = (payload) => {
          this.off(event, wrapped);
          handler(payload);
        };
        wrapped.__original = handler;
        this.on(event, wrapped);
      },
      emit(event, payload) {
        for (const h of (handlers[event] || []).slice()) {
          try {
            h(payload);
          } catch (err) {
            setTimeout(() => {
              throw err;
            });
          }
        }
      },
    };
  }

  function createCardElement(type, initialOptions, registry) {
    const emitter = createEmitter();
    let options = Object.assign({}, initialOptions);
    let container = null;
    let input = null;
    let destroyed = false;
    let touched = false;

    const digits = () => (input ? input.value.replace(/\D/g, '') : '');

    function changePayload() {
      const value = digits();
      const error = validationError(value);
      const full = value.length >= (brandOf(value) === 'amex' ? 15 : 16);
      return {
        elementType: type,
        empty: value.length === 0,
        complete: !error,
        brand: value ? brandOf(value) : 'unknown',
        // Like Stripe: an error shows once the number is full length, or after leaving the field.
        error: error && (full || (touched && value.length > 0)) ? error : undefined,
        value: { postalCode: '' },
      };
    }

    function setClasses(payload) {
      if (!container) return;
      container.classList.add('StripeElement');
      container.classList.toggle('StripeElement--empty', payload.empty);
      container.classList.toggle('StripeElement--complete', payload.complete);
      container.classList.toggle('StripeElement--invalid', Boolean(payload.error));
    }

    const element = {
      __standIn: true,
      __elementType: type,
      __digits: digits,
      mount(target) {
        if (destroyed)
          throw integrationError('This Element has already been destroyed. Please create a new one.');
        const node = typeof target === 'string' ? document.querySelector(target) : target;
        if (!node || !(node instanceof HTMLElement)) {
          throw integrationError('The selector you specified does not apply to any DOM elements.');
        }
        if (container) throw integrationError('This Element is already mounted.');
        container = node;
        input = document.createElement('input');
        input.type = 'text';
        input.name = 'cardnumber';
        input.inputMode = 'numeric';
        input.autocomplete = 'cc-number';
        input.placeholder = options.placeholder || 'Card number';
        input.setAttribute('aria-label', 'Card number');
        input.setAttribute('data-testid', 'stand-in-card-number');
        input.disabled = Boolean(options.disabled);
        input.style.cssText =
          'width:100%;border:0;outline:0;background:transparent;font:inherit;color:inherit;padding:0;margin:0;';
        input.addEventListener('input', () => {
          const payload = changePayload();
          setClasses(payload);
          emitter.emit('change', payload);
        });
        input.addEventListener('focus', () => {
          container?.classList.add('StripeElement--focus');
          emitter.emit('focus', { elementType: type });
        });
        input.addEventListener('blur', () => {
          touched = true;
          container?.classList.remove('StripeElement--focus');
          emitter.emit('blur', { elementType: type });
          const payload = changePayload();
          setClasses(payload);
          if (payload.error) emitter.emit('change', payload);
        });
        input.addEventListener('keydown', (e) => {
          if (e.key === 'Escape') emitter.emit('escape', { elementType: type });
        });
        container.appendChild(input);
        setClasses(changePayload());
        record('element.mount', { type });
        setTimeout(() => emitter.emit('ready', { elementType: type }), 0);
      },
      unmount() {
        if (input?.parentNode) input.parentNode.removeChild(input);
        if (container) {
          container.classList.remove(
            'StripeElement',
            'StripeElement--empty',
            'StripeElement--complete',
            'StripeElement--invalid',
            'StripeElement--focus',
          );
        }
        container = null;
        input = null;
      },
      destroy() {
        element.unmount();
        destroyed = true;
        if (registry.get(type) === element) registry.delete(type);
      },
      on(event, handler) {
        emitter.on(event, handler);
        return element;
      },
      off(event, handler) {
        emitter.off(event, handler);
        return element;
      },
      once(event, handler) {
        emitter.once(event, handler);
        return element;
      },
      update(next) {
        options = Object.assign({}, options, next || {});
        if (input) {
          if (next && 'disabled' in next) input.disabled = Boolean(next.disabled);
          if (next && 'placeholder' in next) input.placeholder = next.placeholder || 'Card number';
        }
      },
      focus() {
        input?.focus();
      },
      blur() {
        input?.blur();
      },
      clear() {
        if (!input) return;
        input.value = '';
        const payload = changePayload();
        setClasses(payload);
        emitter.emit('change', payload);
      },
      collapse() {},
    };
    return element;
  }

  function createElements(elementsOptions) {
    const registry = new Map();
    return {
      __options: Object.assign({}, elementsOptions),
      create(type, options) {
        record('elements.create', { type });
        if (!CARD_TYPES.includes(type)) {
          throw integrationError(`The Stripe.js stand-in only supports card Elements, not "${type}".`);
        }
        if (registry.has(type)) throw integrationError(`Can only create one Element of type ${type}.`);
        const element = createCardElement(type, options || {}, registry);
        registry.set(type, element);
        return element;
      },
      getElement(typeOrComponent) {
        const type = typeof typeOrComponent === 'string' ? typeOrComponent : typeOrComponent?.__elementType;
        return registry.get(type) || null;
      },
      update(options) {
        Object.assign(this.__options, options || {});
      },
      fetchUpdates: () => Promise.resolve({}),
      submit: () => Promise.resolve({}),
    };
  }

  function apiConnectionError(message) {
    return { error: { type: 'api_connection_error', message } };
  }

  function Stripe(publishableKey, stripeOptions) {
    if (typeof publishableKey !== 'string' || publishableKey === '') {
      throw integrationError('Please call Stripe() with your publishable key. You used an empty string.');
    }
    if (/^sk_/.test(publishableKey)) {
      throw integrationError(
        'You should not use your secret key with Stripe.js. Please pass a publishable key instead.',
      );
    }
    record('Stripe', { publishableKey, options: stripeOptions || null });
    const wrappers = [];
    const appInfo = [];

    async function callSim(path, method, params) {
      const base = window.__STRIPE_SIM_URL__;
      if (!base) {
        return apiConnectionError(
          "The Stripe.js stand-in needs window.__STRIPE_SIM_URL__ (the Stripe stand-in's address).",
        );
      }
      const body = new URLSearchParams(Object.assign({}, params, { key: publishableKey }));
      try {
        const res =
          method === 'GET'
            ? await fetch(`${String(base).replace(/\/+$/, '')}${path}?${body.toString()}`)
            : await fetch(`${String(base).replace(/\/+$/, '')}${path}`, {
                method: 'POST',
                headers: { 'content-type': 'application/x-www-form-urlencoded' },
                body: body.toString(),
              });
        return { json: await res.json() };
      } catch (err) {
        return apiConnectionError(
          `An error occurred with our connection to Stripe. (${err instanceof Error ? err.message : String(err)})`,
        );
      }
    }

    function intentId(clientSecret) {
      const match = /^(pi_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(String(clientSecret || ''));
      return match ? match[1] : null;
    }

    async function confirm(method, clientSecret, data) {
      record(method, { clientSecret });
      const id = intentId(clientSecret);
      if (!id) {
        throw integrationError(
          `Invalid value for ${method} intent secret: value should be a client_secret string. You specified: ${clientSecret}.`,
        );
      }
      const params = { client_secret: clientSecret, use_stripe_sdk: 'true' };
      const pm = data?.payment_method;
      if (typeof pm === 'string') params.payment_method = pm;
      else if (pm?.card) {
        const made = paymentMethodFor(pm.card, pm.billing_details);
        if (made.error) return made;
        params.payment_method = made.paymentMethod.id;
      }
      const result = await callSim(`/v1/payment_intents/${id}/confirm`, 'POST', params);
      if (result.error) return result;
      const json = result.json;
      if (json.error) return { error: json.error };
      if (json.status === 'requires_payment_method' && json.last_payment_error) {
        return { error: Object.assign({}, json.last_payment_error, { payment_intent: json }) };
      }
      return { paymentIntent: json };
    }

    return {
      _registerWrapper(wrapper) {
        wrappers.push(wrapper);
      },
      registerAppInfo(info) {
        appInfo.push(info);
      },
      _wrappers: wrappers,
      _appInfo: appInfo,
      elements(options) {
        record('elements', { options: options || null });
        return createElements(options);
      },
      async createPaymentMethod(first, second, third) {
        // Both call shapes: ({type, card, billing_details}) and the older ('card', element, {billing_details}).
        const params =
          typeof first === 'string' ? Object.assign({ type: first, card: second }, third || {}) : first || {};
        record('createPaymentMethod', { type: params.type });
        if (params.type !== 'card') {
          throw integrationError(
            `The Stripe.js stand-in only creates card PaymentMethods, not "${params.type}".`,
          );
        }
        return paymentMethodFor(params.card, params.billing_details);
      },
      confirmCardPayment(clientSecret, data) {
        return confirm('confirmCardPayment', clientSecret, data);
      },
      handleCardAction(clientSecret) {
        return confirm('handleCardAction', clientSecret);
      },
      async retrievePaymentIntent(clientSecret) {
        record('retrievePaymentIntent', { clientSecret });
        const id = intentId(clientSecret);
        if (!id)
          throw integrationError(
            'Invalid value for retrievePaymentIntent: clientSecret is not a client secret.',
          );
        const result = await callSim(`/v1/payment_intents/${id}`, 'GET', { client_secret: clientSecret });
        if (result.error) return result;
        return result.json.error ? { error: result.json.error } : { paymentIntent: result.json };
      },
      async createToken() {
        record('createToken', {});
        return {
          error: {
            type: 'invalid_request_error',
            message: 'The Stripe.js stand-in does not create tokens; use PaymentMethods.',
          },
        };
      },
      async confirmCardSetup(clientSecret, data) {
        record('confirmCardSetup', { clientSecret });
        const match = /^(seti_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(String(clientSecret || ''));
        if (!match) {
          throw integrationError(
            `Invalid value for confirmCardSetup intent secret: value should be a client_secret string. You specified: ${clientSecret}.`,
          );
        }
        const params = { client_secret: clientSecret, use_stripe_sdk: 'true' };
        const pm = data?.payment_method;
        if (typeof pm === 'string') params.payment_method = pm;
        else if (pm?.card) {
          const made = paymentMethodFor(pm.card, pm.billing_details);
          if (made.error) return made;
          params.payment_method = made.paymentMethod.id;
        }
        const result = await callSim(`/v1/setup_intents/${match[1]}/confirm`, 'POST', params);
        if (result.error) return result;
        const json = result.json;
        if (json.error) return { error: json.error };
        if (json.status === 'requires_payment_method' && json.last_setup_error) {
          return { error: Object.assign({}, json.last_setup_error, { setup_intent: json }) };
        }
        return { setupIntent: json };
      },
      async confirmPayment() {
        return {
          error: {
            type: 'invalid_request_error',
            message: 'The Stripe.js stand-in supports card Elements only.',
          },
        };
      },
      paymentRequest() {
        return { canMakePayment: () => Promise.resolve(null), on() {}, off() {}, show() {}, update() {} };
      },
    };
  }

  // loadStripe compares this with the release train it expects ("basil") and warns on a mismatch.
  Stripe.version = 'basil';
  window.Stripe = Stripe;
})();
