import io

from PIL import Image

from timeline.tests.pages import page_text


def test_the_favicon_is_served_at_the_sites_root(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] in ("image/x-icon", "image/vnd.microsoft.icon")
    icon = Image.open(io.BytesIO(b"".join(response.streaming_content)))
    assert icon.format == "ICO"
    assert (32, 32) in icon.info["sizes"]


def test_every_page_links_the_favicon(client, alice):
    for response in (client.get("/timeline/"), alice.client.get("/"), client.get("/nowhere/")):
        assert '<link rel="icon" href="/favicon.ico"' in page_text(response)
