import { useState } from "preact/hooks"
import { type Credentials, operatorSignIn, signIn } from "../api.ts"
import { PageTitle } from "../PageTitle.tsx"
import { Failure, messageOf } from "../ui.tsx"

const value = (form: HTMLFormElement, name: string) => (form.elements.namedItem(name) as HTMLInputElement).value

/** Email and password of an account, or the operator's admin token pasted in. */
export const SignIn = ({ onSignedIn }: { readonly onSignedIn: (credentials: Credentials) => void }) => {
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const attempt = (make: (form: HTMLFormElement) => Promise<Credentials>) => async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setFailure(undefined)
    try {
      onSignedIn(await make(event.currentTarget as HTMLFormElement))
    } catch (error) {
      setFailure(messageOf(error))
      setBusy(false)
    }
  }
  return (
    <main id="main" class="sign-in">
      <PageTitle text="Sign in to parley" />
      <form onSubmit={attempt((form) => signIn(value(form, "email"), value(form, "password")))}>
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" class="primary" disabled={busy}>Sign in</button>
      </form>
      <details>
        <summary>Operator: sign in with the admin token</summary>
        <form onSubmit={attempt((form) => operatorSignIn(value(form, "token").trim()))}>
          <label for="token">Admin token (PARLEY_ADMIN_TOKEN)</label>
          <input id="token" name="token" type="password" autocomplete="off" required />
          <p class="muted">Kept in this tab only, until you sign out or close it.</p>
          <button type="submit" disabled={busy}>Sign in as operator</button>
        </form>
      </details>
      <Failure message={failure} />
    </main>
  )
}
