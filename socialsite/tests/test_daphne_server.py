import urllib.request

import pytest


@pytest.mark.django_db(transaction=True)
def test_daphne_serves_the_admin_login_page(daphne_server):
    with urllib.request.urlopen(f"{daphne_server}/admin/login/") as response:
        assert response.status == 200
        assert b"Django" in response.read()
