"""The theme chosen in settings (accounts.appearance): kept per user, on every page."""

from django.urls import reverse

from accounts.appearance import set_theme


def html_tag(response) -> str:
    return response.content.decode().split("<head>")[0]


def test_pages_follow_the_system_until_a_theme_is_chosen(alice):
    assert "data-theme" not in html_tag(alice.client.get(reverse("home")))
    assert (
        'value="system" checked' in alice.client.get(reverse("accounts:settings")).content.decode()
    )


def test_a_theme_chosen_in_settings_is_on_every_page_of_that_user(alice, bob):
    response = alice.client.post(reverse("accounts:appearance"), {"theme": "dark"})
    settings_url = reverse("accounts:settings") + "#settings-appearance"
    assert response.status_code == 302 and response["Location"] == settings_url
    for name in ("home", "global", "accounts:settings"):
        assert 'data-theme="dark"' in html_tag(alice.client.get(reverse(name)))
    assert "data-theme" not in html_tag(bob.client.get(reverse("home")))
    settings_page = alice.client.get(reverse("accounts:settings")).content.decode()
    assert 'value="dark" checked' in settings_page


def test_choosing_the_system_again_drops_the_choice(alice):
    set_theme(alice.uid, "light")
    assert 'data-theme="light"' in html_tag(alice.client.get(reverse("home")))
    alice.client.post(reverse("accounts:appearance"), {"theme": "system"})
    assert "data-theme" not in html_tag(alice.client.get(reverse("home")))


def test_an_unknown_theme_changes_nothing(alice):
    set_theme(alice.uid, "dark")
    response = alice.client.post(reverse("accounts:appearance"), {"theme": "purple"}, follow=True)
    assert "Pick light, dark or as the system." in response.content.decode()
    assert 'data-theme="dark"' in html_tag(response)
