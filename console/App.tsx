import { useCallback, useMemo, useState } from "preact/hooks"
import { type Client, type Credentials, forgetOperator, makeClient, signOut, storedOperator } from "./api.ts"
import { AccountPage } from "./pages/AccountPage.tsx"
import { Accounts } from "./pages/Accounts.tsx"
import { KeyPage } from "./pages/KeyPage.tsx"
import { Keys } from "./pages/Keys.tsx"
import { McpServers } from "./pages/McpServers.tsx"
import { Providers } from "./pages/Providers.tsx"
import { Requests } from "./pages/Requests.tsx"
import { Sandboxes } from "./pages/Sandboxes.tsx"
import { SignIn } from "./pages/SignIn.tsx"
import { PageTitle } from "./PageTitle.tsx"
import { currentRoute, href, replaceRoute, useRoute } from "./route.ts"

/** The console (docs/DESIGN.md §6): sign-in, then the pages of the signed-in account, or all of them for the operator. */
export const App = () => {
  const [credentials, setCredentials] = useState<Credentials | undefined>(storedOperator)
  const signedOut = useCallback(() => {
    forgetOperator()
    setCredentials(undefined)
  }, [])
  const signedIn = useCallback((credentials: Credentials) => {
    // The page left open may be one these credentials may not see (the operator's, opened by its address): not a landing.
    if (credentials.kind === "session" && isOperatorPage(currentRoute()[0])) replaceRoute("keys")
    setCredentials(credentials)
  }, [])
  const client = useMemo(() => credentials && makeClient(credentials, signedOut), [credentials, signedOut])
  if (credentials === undefined || client === undefined) return <SignIn onSignedIn={signedIn} />
  return <Shell credentials={credentials} client={client} signedOut={signedOut} />
}

/** Pages of the operator alone: an account holder is not offered them. */
const operatorPages: ReadonlyArray<readonly [string, string]> = [
  ["accounts", "Accounts"],
  ["mcp-servers", "MCP servers"],
  ["providers", "Providers"]
]

const isOperatorPage = (page: string | undefined) => operatorPages.some(([name]) => name === page)

/** What an account holder sees at an operator's page (reached by its address): why, and where to go. */
const OperatorOnly = ({ title }: { readonly title: string }) => (
  <>
    <PageTitle text={title} />
    <p class="empty" role="status">
      {title} are the operator's to manage: sign in with the admin token to see them.{" "}
      <a href={href("keys")}>Back to your keys</a>
    </p>
  </>
)

const Shell = ({ credentials, client, signedOut }: {
  readonly credentials: Credentials
  readonly client: Client
  readonly signedOut: () => void
}) => {
  const [page = "keys", id] = useRoute()
  const operator = credentials.kind === "operator"
  const links: ReadonlyArray<readonly [string, string]> = [
    ["keys", "Keys"],
    ["requests", "Requests"],
    ["sandboxes", "Sandboxes"],
    ...(operator ? operatorPages : [])
  ]
  const operatorOnly = operator ? undefined : operatorPages.find(([name]) => name === page)?.[1]
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          event.preventDefault()
          document.getElementById("main")?.focus()
        }}
      >
        Skip to content
      </a>
      <header class="bar">
        <span class="brand">parley console</span>
        <nav aria-label="Console">
          <ul>
            {links.map(([name, label]) => (
              <li key={name}>
                <a href={href(name)} aria-current={page === name ? "page" : undefined}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">{operator ? "Operator" : credentials.account.email ?? credentials.account.name}</span>
        <button
          type="button"
          onClick={() =>
            void signOut(client, credentials).then(() => {
              // Whoever signs in next starts on Keys: the page left open may be another's (an account's key, the operator's).
              replaceRoute("keys")
              signedOut()
            })}
        >
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {operatorOnly !== undefined
          ? <OperatorOnly title={operatorOnly} />
          : page === "keys" && id !== undefined
          ? <KeyPage client={client} id={id} />
          : page === "requests"
          ? <Requests client={client} />
          : page === "sandboxes"
          ? <Sandboxes client={client} />
          : page === "accounts" && operator && id !== undefined
          ? <AccountPage client={client} id={id} />
          : page === "accounts" && operator
          ? <Accounts client={client} />
          : page === "mcp-servers" && operator
          ? <McpServers client={client} />
          : page === "providers" && operator
          ? <Providers client={client} />
          : <Keys client={client} operator={operator} />}
      </main>
    </>
  )
}
