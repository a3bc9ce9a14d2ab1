// The players' pages, by path: "/signin" and "/signup" (account.js), "/me" (the player's games,
// mygames.js) and "/p/NAME" (a player's page, players.js). Each is loaded when first shown.

// A function of `main` that draws the page `path` names, or null when it is none of these.
// `loadLanguage` switches the page to the language of the account that signs in.
export async function accountPageFor(path, loadLanguage) {
  let m;
  if (path === "/signin" || path === "/signup") {
    const { showAccountForm } = await import("./account.js");
    return (main) => showAccountForm(main, path.slice(1), async (user, next) => {
      if (user.language) await loadLanguage(user.language, true);
      location.href = next;
    });
  }
  if (path === "/me") {
    const { showMyGames } = await import("./mygames.js");
    return (main) => showMyGames(main);
  }
  if ((m = path.match(/^\/p\/([^/]+)$/))) {
    const { showPlayer } = await import("./players.js");
    return (main) => showPlayer(main, decodeURIComponent(m[1]));
  }
  return null;
}
